import { screen, waitFor, within } from "@testing-library/react";
import { describe, expect, it } from "vitest";

import { BUILT_IN_PERMISSIONS } from "@/lib/auth/permissions";
import { caseHref } from "@/lib/cases/queue-context";
import type { CaseDetail } from "@/lib/cases/types";
import { ANALYST, caseDetail, OTHER, reasonCatalogue } from "@/test/case-fixtures";
import { apiError, mockApi, renderWithProviders, router } from "@/test/render";

import { CaseWork } from "./case-work";

/*
 * The case page's decision panel: the outcome form (recommendation, reasons, comment), what it sends, what it
 * refuses before sending, and the keyboard (Ctrl+Enter in a field submits; p/x/e pick a recommendation).
 */

const ID = "ver-case-work-1";
const viewer = { id: ANALYST.id, permissions: BUILT_IN_PERMISSIONS.analyst };

function answers(detail: CaseDetail = caseDetail(ID, { assignee: ANALYST })) {
  return mockApi({
    [`GET /api/cases/${ID}`]: { case: detail },
    "GET /api/cases/reasons": reasonCatalogue,
    [`POST /api/cases/${ID}/outcome`]: { outcomeState: "recorded" },
  });
}

/** The one outcome the panel sent, once it has sent it. */
async function sentOutcome(api: ReturnType<typeof answers>) {
  await waitFor(() => expect(api.callsTo(`POST /api/cases/${ID}/outcome`)).toHaveLength(1));
  return api.callsTo(`POST /api/cases/${ID}/outcome`)[0]?.body;
}

async function renderPanel(detail?: CaseDetail) {
  const api = answers(detail);
  const view = renderWithProviders(<CaseWork publicId={ID} viewer={viewer} />);
  const form = await screen.findByRole("form", { name: "Recommendation" });
  // The reasons arrive with their own request.
  await within(form).findByRole("checkbox", { name: /Identity confirmed/ });
  return { api, form, ...view };
}

describe("CaseWork: the outcome form", () => {
  it("offers approve, reprove and escalate, approve first, each with its own reasons", async () => {
    const { user, form } = await renderPanel();
    const approve = within(form).getByRole("radio", { name: "Approve" });
    expect(approve).toBeChecked();
    const reasonNames = () =>
      within(form)
        .getAllByRole("checkbox")
        .map((box) => box.getAttribute("value"));
    expect(reasonNames()).toEqual(["identity_confirmed", "documents_consistent", "other"]);

    await user.click(within(form).getByRole("radio", { name: "Reprove" }));
    expect(reasonNames()).toContain("document_expired");
    expect(reasonNames()).not.toContain("identity_confirmed");

    await user.click(within(form).getByRole("radio", { name: "Escalate" }));
    expect(reasonNames()).toContain("pep_exposure");
    expect(reasonNames()).not.toContain("document_expired");
  });

  it("sends the recommendation, the reasons and the comment", async () => {
    const { user, form, api } = await renderPanel();
    await user.click(within(form).getByRole("checkbox", { name: /Identity confirmed/ }));
    await user.click(within(form).getByRole("checkbox", { name: /Documents consistent/ }));
    await user.type(within(form).getByLabelText("Comment"), "Both pictures match.");
    await user.click(within(form).getByRole("button", { name: "Record recommendation" }));

    expect(await within(form).findByRole("status")).toHaveTextContent("Recommendation recorded.");
    const [sent] = api.callsTo(`POST /api/cases/${ID}/outcome`);
    expect(sent?.body).toEqual({
      recommendation: "approve",
      reasons: ["identity_confirmed", "documents_consistent"],
      comment: "Both pictures match.",
    });
  });

  it("refuses an outcome without a reason, and sends nothing", async () => {
    const { user, form, api } = await renderPanel();
    await user.click(within(form).getByRole("button", { name: "Record recommendation" }));
    expect(within(form).getByText("Pick at least one reason.")).toBeVisible();
    expect(api.callsTo(`POST /api/cases/${ID}/outcome`)).toHaveLength(0);
  });

  it("asks a reprove for a comment: the field says it is required, and an empty one is named", async () => {
    const { user, form, api } = await renderPanel();
    await user.click(within(form).getByRole("radio", { name: "Reprove" }));
    const comment = within(form).getByLabelText("Comment (required for a reprove)");
    expect(comment).toHaveAttribute("aria-required", "true");
    await user.click(within(form).getByRole("checkbox", { name: /Document expired/ }));
    await user.click(within(form).getByRole("button", { name: "Record recommendation" }));

    expect(comment).toHaveAttribute("aria-invalid", "true");
    expect(comment).toHaveAccessibleDescription("A reprove needs a comment saying why.");
    expect(api.callsTo(`POST /api/cases/${ID}/outcome`)).toHaveLength(0);

    await user.type(comment, "The document expired in 2020.");
    await user.click(within(form).getByRole("button", { name: "Record recommendation" }));
    expect(await sentOutcome(api)).toEqual({
      recommendation: "reprove",
      reasons: ["document_expired"],
      comment: "The document expired in 2020.",
    });
  });

  it("drops a reason the new recommendation does not cite", async () => {
    const { user, form, api } = await renderPanel();
    await user.click(within(form).getByRole("checkbox", { name: /Other \(see comment\)/ }));
    await user.click(within(form).getByRole("checkbox", { name: /Identity confirmed/ }));
    await user.click(within(form).getByRole("radio", { name: "Escalate" }));
    await user.click(within(form).getByRole("button", { name: "Record recommendation" }));
    expect(await sentOutcome(api)).toMatchObject({ recommendation: "escalate", reasons: ["other"] });
  });

  it("Ctrl+Enter in the comment submits the form", async () => {
    const { user, form, api } = await renderPanel();
    await user.click(within(form).getByRole("checkbox", { name: /Identity confirmed/ }));
    await user.type(within(form).getByLabelText("Comment"), "Checked.");
    await user.keyboard("{Control>}{Enter}{/Control}");
    expect(await sentOutcome(api)).toEqual({
      recommendation: "approve",
      reasons: ["identity_confirmed"],
      comment: "Checked.",
    });
  });

  it("x picks reprove, a number ticks that reason, c goes to the comment", async () => {
    const { user, form } = await renderPanel();
    screen.getByRole("heading", { name: /Case/ }).focus();
    await user.keyboard("x");
    expect(within(form).getByRole("radio", { name: "Reprove" })).toBeChecked();
    await user.keyboard("{Escape}");
    screen.getByRole("heading", { name: /Case/ }).focus();
    await user.keyboard("2");
    expect(within(form).getAllByRole("checkbox")[1]).toBeChecked();
    screen.getByRole("heading", { name: /Case/ }).focus();
    await user.keyboard("c");
    expect(within(form).getByLabelText("Comment (required for a reprove)")).toHaveFocus();
  });

  it("shows the server's refusal of a field beside that field", async () => {
    const api = mockApi({
      [`GET /api/cases/${ID}`]: { case: caseDetail(ID, { assignee: ANALYST }) },
      "GET /api/cases/reasons": reasonCatalogue,
      [`POST /api/cases/${ID}/outcome`]: apiError(400, { code: "validation", message: "comment: too long", fields: ["comment"] }),
    });
    const { user } = renderWithProviders(<CaseWork publicId={ID} viewer={viewer} />);
    const form = await screen.findByRole("form", { name: "Recommendation" });
    await user.click(await within(form).findByRole("checkbox", { name: /Identity confirmed/ }));
    await user.click(within(form).getByRole("button", { name: "Record recommendation" }));
    const comment = within(form).getByLabelText("Comment");
    await waitFor(() => expect(comment).toHaveAccessibleDescription("comment: too long"));
    expect(api.callsTo(`POST /api/cases/${ID}/outcome`)).toHaveLength(1);
  });
});

describe("CaseWork: who may decide", () => {
  it("an unassigned case offers the claim and no outcome form; claiming sends assignee me", async () => {
    const api = mockApi({
      [`GET /api/cases/${ID}`]: [{ case: caseDetail(ID) }, { case: caseDetail(ID, { assignee: ANALYST }) }],
      "GET /api/cases/reasons": reasonCatalogue,
      [`POST /api/cases/${ID}/assignment`]: { assigneeId: ANALYST.id },
    });
    const { user } = renderWithProviders(<CaseWork publicId={ID} viewer={viewer} />);
    const claim = await screen.findByRole("button", { name: "Assign to me" });
    expect(screen.queryByRole("form", { name: "Recommendation" })).not.toBeInTheDocument();
    await user.click(claim);
    expect(await screen.findByRole("form", { name: "Recommendation" })).toBeVisible();
    expect(api.callsTo(`POST /api/cases/${ID}/assignment`)[0]?.body).toEqual({ assignee: "me" });
    expect(screen.getByTestId("case-assignee")).toHaveTextContent(ANALYST.email);
  });

  it("a case someone else holds says who, and offers no outcome form", async () => {
    answers(caseDetail(ID, { assignee: OTHER }));
    renderWithProviders(<CaseWork publicId={ID} viewer={viewer} />);
    expect(await screen.findByText(`Taken by ${OTHER.email}.`, { exact: false })).toBeVisible();
    expect(screen.queryByRole("form", { name: "Recommendation" })).not.toBeInTheDocument();
  });

  it("j opens the next case of the queue, keeping the queue's context", async () => {
    answers(caseDetail(ID, { assignee: ANALYST, next: "ver-next" }));
    const { user } = renderWithProviders(<CaseWork publicId={ID} viewer={viewer} context="queue=mine" />);
    await screen.findByRole("form", { name: "Recommendation" });
    screen.getByRole("heading", { name: /Case/ }).focus();
    await user.keyboard("j");
    expect(router.push).toHaveBeenCalledWith(caseHref("ver-next", "queue=mine"));
  });
});
