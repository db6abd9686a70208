import { screen, waitFor } from "@testing-library/react";
import { describe, expect, it, vi } from "vitest";

import { apiError, mockApi, renderWithProviders } from "@/test/render";

import { TitularReportForm } from "./titular-report-form";
import { TitularReportSection } from "./titular-report-section";

/*
 * The titular report's form: the CPF checked before anything leaves the browser (each problem said on the
 * field, which gets the focus), the language and the format asked for, the server's refusal of the CPF shown
 * until the field is edited; and, through the page's section, the CPF sent in the request's body only.
 */

const VALID_CPF = "529.982.247-25";

function renderForm({ pending = null as "json" | "csv" | "pdf" | null, serverCpfError = false } = {}) {
  const onAsk = vi.fn();
  const view = renderWithProviders(<TitularReportForm pending={pending} serverCpfError={serverCpfError} onAsk={onAsk} />);
  return { onAsk, cpf: screen.getByLabelText("Person's CPF"), ...view };
}

describe("TitularReportForm", () => {
  it("asks for the report on screen in the member's language by default", async () => {
    const { user, onAsk, cpf } = renderForm();
    expect(screen.getByRole("combobox", { name: "Report language" })).toHaveDisplayValue("English");
    await user.type(cpf, "52998224725");
    expect(cpf).toHaveValue(VALID_CPF);
    await user.click(screen.getByRole("button", { name: "Show on screen" }));
    expect(onAsk).toHaveBeenCalledWith({ cpf: VALID_CPF, locale: "en", format: "json" });
  });

  it("Enter in the CPF field shows the report too", async () => {
    const { user, onAsk, cpf } = renderForm();
    await user.type(cpf, "52998224725{Enter}");
    expect(onAsk).toHaveBeenCalledWith({ cpf: VALID_CPF, locale: "en", format: "json" });
  });

  it("downloads as CSV or PDF in the language chosen", async () => {
    const { user, onAsk, cpf } = renderForm();
    await user.type(cpf, VALID_CPF);
    await user.selectOptions(screen.getByRole("combobox", { name: "Report language" }), "Português (Brasil)");
    await user.click(screen.getByRole("button", { name: "Download CSV" }));
    await user.click(screen.getByRole("button", { name: "Download PDF" }));
    expect(onAsk.mock.calls).toEqual([
      [{ cpf: VALID_CPF, locale: "pt-BR", format: "csv" }],
      [{ cpf: VALID_CPF, locale: "pt-BR", format: "pdf" }],
    ]);
  });

  it.each([
    ["", "Type the person's CPF."],
    ["5299822472", "A CPF has 11 digits."],
    ["11111111111", "A CPF cannot be one repeated digit."],
    ["52998224724", "The CPF's check digits are wrong: check the number."],
  ])("refuses %j, says why on the field and gives it the focus", async (typed, message) => {
    const { user, onAsk, cpf } = renderForm();
    if (typed) await user.type(cpf, typed);
    await user.click(screen.getByRole("button", { name: "Download PDF" }));
    expect(cpf).toHaveAttribute("aria-invalid", "true");
    expect(cpf).toHaveAccessibleDescription(expect.stringContaining(message));
    expect(cpf).toHaveFocus();
    expect(onAsk).not.toHaveBeenCalled();
  });

  it("checks the CPF when the field is left, and forgets the problem once it is edited", async () => {
    const { user, cpf } = renderForm();
    await user.type(cpf, "123");
    await user.tab();
    expect(cpf).toHaveAccessibleDescription(expect.stringContaining("A CPF has 11 digits."));
    await user.type(cpf, "4");
    expect(cpf).not.toHaveAttribute("aria-invalid");
  });

  it("shows the server's refusal of the CPF until the field is edited", async () => {
    const { user, cpf } = renderForm({ serverCpfError: true });
    expect(cpf).toHaveAccessibleDescription(expect.stringContaining("The server refused this CPF."));
    await user.type(cpf, "5");
    expect(cpf).not.toHaveAttribute("aria-invalid");
  });

  it("while a report is built, nothing can be asked again", () => {
    renderForm({ pending: "csv" });
    for (const name of ["Show on screen", "Download CSV", "Download PDF"]) expect(screen.getByRole("button", { name })).toBeDisabled();
    expect(screen.getByRole("button", { name: "Download CSV" })).toHaveAttribute("aria-busy", "true");
    expect(screen.getByLabelText("Person's CPF")).toBeDisabled();
  });
});

describe("The privacy page's titular report section", () => {
  it("sends the CPF in the body, never in the address, and shows the server's refusal on the field", async () => {
    const api = mockApi({
      "POST /api/privacy/reports": apiError(400, { code: "validation", message: "cpf: is not valid", fields: ["cpf"] }),
    });
    const { user } = renderWithProviders(<TitularReportSection />, { url: "/admin/privacy" });
    const cpf = screen.getByLabelText("Person's CPF");
    await user.type(cpf, VALID_CPF);
    await user.click(screen.getByRole("button", { name: "Show on screen" }));

    await waitFor(() => expect(cpf).toHaveAccessibleDescription(expect.stringContaining("The server refused this CPF.")));
    const [sent] = api.callsTo("POST /api/privacy/reports");
    expect(sent?.body).toEqual({ cpf: VALID_CPF, locale: "en", format: "json" });
    expect(api.calls.every((call) => !call.url.includes("52998224725") && !call.url.includes("529.982"))).toBe(true);
  });

  it("downloads the file in the format asked, saying which file was saved, with the button busy meanwhile", async () => {
    let answer = () => undefined as void;
    const held = new Promise<void>((resolve) => (answer = resolve));
    const api = mockApi({
      "POST /api/privacy/reports": async () => {
        await held;
        return { status: 200, body: { pdf: true } };
      },
    });
    // jsdom has no object URLs; the browser's save is a link clicked (lib/shared/api-client/csv-download.ts).
    vi.stubGlobal("URL", Object.assign(class extends URL {}, { createObjectURL: () => "blob:report", revokeObjectURL: () => undefined }));
    const { user } = renderWithProviders(<TitularReportSection />, { url: "/admin/privacy" });
    await user.type(screen.getByLabelText("Person's CPF"), VALID_CPF);
    await user.click(screen.getByRole("button", { name: "Download PDF" }));
    expect(await screen.findByRole("button", { name: "Download PDF" })).toHaveAttribute("aria-busy", "true");
    expect(screen.getByRole("button", { name: "Download CSV" })).not.toHaveAttribute("aria-busy", "true");
    answer();
    expect(await screen.findByText(/titular-report-.*\.pdf/)).toBeInTheDocument();
    expect(api.callsTo("POST /api/privacy/reports")[0]?.body).toEqual({ cpf: VALID_CPF, locale: "en", format: "pdf" });
  });
});
