import { screen, waitFor, within } from "@testing-library/react";
import { describe, expect, it } from "vitest";

import type { SuspiciousActivityDto } from "@/lib/cases/coaf";
import { apiError, mockApi, renderWithProviders, type ApiAnswer } from "@/test/render";

import { CoafReportAction } from "./coaf-report-action";

/*
 * "Report to COAF" on the case page: each field the form can check is named before anything is sent; the server's
 * field errors are named beside their fields (the operations' by row); a report opened shows the link to the reports
 * page and sends the summary, the grounds and the operations as the route takes them.
 */

const PUBLIC_ID = "3f6a1c2e-8b4d-4e7f-9a10-2b3c4d5e6f70";
const PATH = `POST /api/cases/${PUBLIC_ID}/suspicious-activity`;
const REPORT: SuspiciousActivityDto = {
  id: "6f1c8a52-1b7e-4d0e-9a55-0d6f0f4b2a10",
  status: "draft",
  casePublicId: PUBLIC_ID,
  documentMasked: "***.982.247-**",
  summary: "Split deposits",
  grounds: ["other"],
  operations: [],
  openedAt: "2026-03-10T12:00:00Z",
  openedBy: "00000000-0000-0000-0000-000000000001",
  deadline: "2026-03-11T12:00:00Z",
  overdue: false,
  protocol: null,
  filedAt: null,
};

async function openDialog(answer: ApiAnswer | ApiAnswer[]) {
  const api = mockApi({ [PATH]: answer });
  const view = renderWithProviders(<CoafReportAction publicId={PUBLIC_ID} />);
  await view.user.click(screen.getByRole("button", { name: "Report to COAF" }));
  const dialog = await screen.findByRole("dialog", { name: "Report suspicious activity to COAF" }, { timeout: 15_000 });
  // The dialog's code comes on its own (./coaf-report-form.tsx, useLazyDialog), the form with it.
  await within(dialog).findByRole("textbox", { name: "Summary" }, { timeout: 15_000 });
  return { api, dialog, ...view };
}

describe("CoafReportAction", () => {
  it("names the summary, the grounds and a half-filled operation before sending anything", async () => {
    const { api, dialog, user } = await openDialog({ report: REPORT });
    await user.click(within(dialog).getByRole("button", { name: "Add an operation" }));
    await user.type(within(dialog).getByLabelText("Amount (BRL)"), "-5");
    await user.click(within(dialog).getByRole("button", { name: "Open the draft report" }));
    expect(within(dialog).getByRole("textbox", { name: "Summary" })).toHaveAccessibleDescription(/Write a summary\./);
    expect(within(dialog).getByText("Choose at least one ground.")).toBeVisible();
    expect(within(dialog).getByLabelText("Date")).toHaveAccessibleDescription("Enter the operation's date.");
    expect(within(dialog).getByLabelText("Amount (BRL)")).toHaveAccessibleDescription("Enter an amount of zero or more.");
    expect(within(dialog).getByLabelText("Description")).toHaveAccessibleDescription("Describe the operation.");
    expect(within(dialog).getByRole("textbox", { name: "Summary" })).toHaveFocus();
    expect(api.callsTo(PATH)).toHaveLength(0);
  });

  it("shows the server's field errors beside their fields, then sends and links to the reports page", async () => {
    const { api, dialog, user } = await openDialog([
      apiError(400, { code: "validation", message: "Invalid input", fields: ["summary"] }),
      { report: REPORT },
    ]);
    await user.type(within(dialog).getByRole("textbox", { name: "Summary" }), "Split deposits");
    await user.click(within(dialog).getByRole("checkbox", { name: "Other (described in the summary)" }));
    await user.click(within(dialog).getByRole("button", { name: "Add an operation" }));
    await user.type(within(dialog).getByLabelText("Date"), "2026-03-01");
    await user.type(within(dialog).getByLabelText("Amount (BRL)"), "9900,50");
    await user.type(within(dialog).getByLabelText("Description"), "Cash deposit");
    await user.click(within(dialog).getByRole("button", { name: "Open the draft report" }));
    await waitFor(() =>
      expect(within(dialog).getByRole("textbox", { name: "Summary" })).toHaveAccessibleDescription(/The server refused this field/),
    );
    await user.click(within(dialog).getByRole("button", { name: "Open the draft report" }));
    await waitFor(() => expect(screen.queryByRole("dialog")).toBeNull());
    expect(screen.getByRole("link", { name: "See it on the COAF reports page" })).toHaveAttribute(
      "href",
      `/compliance/coaf#report-${REPORT.id}`,
    );
    expect(api.callsTo(PATH).map((call) => call.body)).toEqual([
      {
        summary: "Split deposits",
        grounds: ["other"],
        operations: [{ date: "2026-03-01", amount: 9900.5, description: "Cash deposit" }],
      },
      {
        summary: "Split deposits",
        grounds: ["other"],
        operations: [{ date: "2026-03-01", amount: 9900.5, description: "Cash deposit" }],
      },
    ]);
  });
});
