import { fireEvent, screen, waitFor, within } from "@testing-library/react";
import { describe, expect, it } from "vitest";

import type { CpfHistoryRecord, FederalRevenueRecord } from "@/lib/upstream/model/partners";
import type { Verification } from "@/lib/upstream/model/verification";
import { mockApi, renderWithProviders } from "@/test/render";
import { verificationFixture } from "@/test/verification-fixtures";

import { DocumentRecordComparison } from "./document-record-comparison";

/*
 * The document's data beside the person's records on the case page: the key and the button run the lookup through
 * the record route (purpose filled in, the CPF never in the address), the table says per field and source whether
 * it matches, differs or cannot be compared, and a member without the lookup permission sees the document only.
 */

const ID = "ver-record-1";
const ROUTE = `POST /api/verifications/${ID}/record`;

const VERIFICATION = verificationFixture({ publicId: ID });

const receita = {
  cpf: "52998224725",
  name: "MARIANA LUIZA COSTA RIBEIRO",
  birthDate: "1988-04-18",
  normalizedNames: { first: null, middle: null, last: null },
  extra: {},
} as unknown as FederalRevenueRecord;
const history = {
  cpf: "52998224725",
  name: "MARIANA LUIZA COSTA RIBEIRO",
  motherName: "HELENA ALMEIDA COSTA",
  birthDate: "1988-04-17",
  pep: false,
  names: {},
  extra: {},
} as unknown as CpfHistoryRecord;
const RECORDS = {
  results: [
    { source: "receita", record: receita },
    { source: "history", record: history },
  ],
};

const rowOf = (field: string) => screen.getByRole("rowheader", { name: field }).closest("tr")!;

describe("looking up the record", () => {
  it("runs on `l` with the purpose filled in, the CPF kept out of the address, and highlights the field that differs", async () => {
    const api = mockApi({ [ROUTE]: RECORDS });
    renderWithProviders(<DocumentRecordComparison verification={VERIFICATION} canLookUp />);
    expect(screen.queryByRole("columnheader", { name: "Federal revenue" })).toBeNull();
    fireEvent.keyDown(window, { key: "l" });

    await screen.findByRole("columnheader", { name: "Federal revenue" });
    const [call] = api.callsTo(ROUTE);
    expect(call!.body).toEqual({
      purpose: "KYC review of this case: the document's data against the CPF record",
      sources: ["receita", "history"],
    });
    expect(call!.url).not.toMatch(/529|98224725/);

    const birth = rowOf("Birth date");
    expect(birth).toHaveAttribute("data-differs", "true");
    const [, fromReceita, fromHistory] = within(birth).getAllByRole("cell");
    expect(fromReceita).toHaveTextContent("04/18/1988");
    expect(fromReceita).toHaveTextContent("Differs");
    expect(fromHistory).toHaveTextContent("Matches");
    // Accents and case set aside: the name matches in both records.
    expect(rowOf("Name")).not.toHaveAttribute("data-differs");
    expect(within(rowOf("Name")).getAllByText("Matches")).toHaveLength(2);
    expect(within(rowOf("Mother's name")).getByText("Not in this record")).toBeInTheDocument();
    expect(screen.getByRole("status")).toHaveTextContent("A record differs from the document");
  });

  it("runs on an `l` pressed before the panel's code was there, kept by the shell's recorder, and only once", async () => {
    const api = mockApi({ [ROUTE]: RECORDS });
    window.__earlyKeys = [{ key: "l", path: window.location.pathname, at: Date.now() }];
    try {
      renderWithProviders(<DocumentRecordComparison verification={VERIFICATION} canLookUp />);
      await screen.findByRole("columnheader", { name: "Federal revenue" });
      expect(api.callsTo(ROUTE)).toHaveLength(1);
      expect(window.__earlyKeys).toEqual([]);
    } finally {
      delete window.__earlyKeys;
    }
  });

  it("does nothing on `l` while typing in a field", async () => {
    const api = mockApi({ [ROUTE]: RECORDS });
    renderWithProviders(<DocumentRecordComparison verification={VERIFICATION} canLookUp />);
    const purpose = screen.getByLabelText(/Purpose of the lookup/);
    fireEvent.keyDown(purpose, { key: "l" });
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(api.callsTo(ROUTE)).toHaveLength(0);
  });

  it("asks for the CPF when the service shows the document masked, and says so when it is not this verification's", async () => {
    const masked: Verification = {
      ...VERIFICATION,
      document: "***.982.247-**",
      documentMasked: true,
      maskedBy: "service",
      person: { name: "M*** L*** C*** R***", birthDate: "****-**-**", pep: false },
    };
    const api = mockApi({
      [ROUTE]: [
        { status: 400, body: { error: { code: "validation", message: "Invalid input: cpf", fields: ["cpf"] } } },
        {
          results: [
            { source: "receita", record: receita },
            { source: "history", record: { ...history, pep: true } },
          ],
        },
      ],
    });
    renderWithProviders(<DocumentRecordComparison verification={masked} canLookUp />);
    fireEvent.keyDown(window, { key: "l" });
    // An empty CPF is the form's own problem: nothing is sent.
    const cpf = screen.getByLabelText(/The person's CPF/);
    await waitFor(() => expect(cpf).toHaveFocus());
    expect(api.callsTo(ROUTE)).toHaveLength(0);

    fireEvent.change(cpf, { target: { value: "390.533.447-05" } });
    fireEvent.click(screen.getByRole("button", { name: "Look up the record" }));
    expect(await screen.findByText("This CPF is not this verification's document.")).toBeInTheDocument();

    fireEvent.change(cpf, { target: { value: "529.982.247-25" } });
    fireEvent.click(screen.getByRole("button", { name: "Look up the record" }));
    await screen.findByRole("columnheader", { name: "Enrichment" });
    expect(api.callsTo(ROUTE)[1]!.body).toMatchObject({ cpf: "529.982.247-25" });
    // Masked on the document: never a difference; the PEP flag, which no mask hides, still compares.
    expect(within(rowOf("Name")).getAllByText("Cannot compare: masked")).toHaveLength(2);
    expect(rowOf("Name")).not.toHaveAttribute("data-differs");
    expect(rowOf("Politically exposed person")).toHaveAttribute("data-differs", "true");
  });

  it("shows the lookup limit's refusal in words", async () => {
    mockApi({
      [ROUTE]: {
        status: 429,
        body: { error: { code: "rate_limited", message: "3 CPF lookups per minute" } },
      },
    });
    renderWithProviders(<DocumentRecordComparison verification={VERIFICATION} canLookUp />);
    fireEvent.click(screen.getByRole("button", { name: "Look up the record" }));
    expect(await screen.findByText("You reached your lookup limit. Try again later.")).toBeInTheDocument();
  });
});

it("without the lookup permission: the document's fields, no form and no key", async () => {
  const api = mockApi({ [ROUTE]: RECORDS });
  renderWithProviders(<DocumentRecordComparison verification={VERIFICATION} canLookUp={false} />);
  expect(within(rowOf("Name")).getByText("Mariana Luíza Costa Ribeiro")).toBeInTheDocument();
  expect(within(rowOf("Birth date")).getByText("04/17/1988")).toBeInTheDocument();
  expect(screen.getByText(/needs the CPF lookup permission/)).toBeInTheDocument();
  expect(screen.queryByRole("button", { name: "Look up the record" })).toBeNull();
  fireEvent.keyDown(window, { key: "l" });
  await new Promise((resolve) => setTimeout(resolve, 20));
  expect(api.callsTo(ROUTE)).toHaveLength(0);
});
