import { screen, waitFor, within } from "@testing-library/react";
import { describe, expect, it } from "vitest";

import { BUILT_IN_PERMISSIONS } from "@/lib/auth/permissions";
import { caseHref } from "@/lib/cases/queue-context";
import type { TakeMode } from "@/lib/cases/take-mode";
import type { CaseDetail } from "@/lib/cases/types";
import { ANALYST, caseDetail, OTHER, reasonCatalogue } from "@/test/case-fixtures";
import { apiError, mockApi, renderWithProviders, router, type ApiAnswer } from "@/test/render";

import { CaseWork } from "./case-work";

/*
 * No wasted key, no key lost (issue 32): keys pressed while the case loads or while the panel's action is in flight
 * are kept and applied when it is ready; a decision key takes an unassigned case as the team's take mode says; the
 * focus leaves the form once a recommendation is sent, so the next key is a shortcut and never text in the comment.
 */

const ID = "ver-case-keys-1";
const viewer = { id: ANALYST.id, permissions: BUILT_IN_PERMISSIONS.analyst };

/** An answer held until the test lets it go. */
function held(answer: object) {
  let release = () => undefined as void;
  const gate = new Promise<void>((resolve) => (release = resolve));
  const respond: ApiAnswer = async () => {
    await gate;
    return answer;
  };
  return { respond, release: () => release() };
}

const read = (detail: CaseDetail, takeMode?: TakeMode) => ({ case: detail, ...(takeMode ? { takeMode } : {}) });

describe("CaseWork: keys before the panel is ready", () => {
  it("j pressed before the case has arrived opens the next case once it arrives", async () => {
    const caseRead = held(read(caseDetail(ID, { assignee: ANALYST, next: "ver-next" })));
    mockApi({ [`GET /api/cases/${ID}`]: caseRead.respond, "GET /api/cases/reasons": reasonCatalogue });
    const { user } = renderWithProviders(<CaseWork publicId={ID} viewer={viewer} context="queue=mine" />);
    await waitFor(() => expect(screen.getByTestId("case-panel-loading")).toHaveAttribute("data-keys", "kept"));
    await user.keyboard("j");
    expect(await screen.findByText("Loading the case: keys pressed now apply when it is ready.")).toBeVisible();
    expect(router.push).not.toHaveBeenCalled();
    caseRead.release();
    await waitFor(() => expect(router.push).toHaveBeenCalledWith(caseHref("ver-next", "queue=mine")));
    expect(router.push).toHaveBeenCalledTimes(1);
  });

  it("Ctrl+Enter sends the comment as typed and leaves the field: the j that follows opens the next case", async () => {
    const recorded = held({ outcomeState: "pending_confirmation" });
    const api = mockApi({
      [`GET /api/cases/${ID}`]: read(caseDetail(ID, { assignee: ANALYST, next: "ver-next" })),
      "GET /api/cases/reasons": reasonCatalogue,
      [`POST /api/cases/${ID}/outcome`]: recorded.respond,
    });
    const { user } = renderWithProviders(<CaseWork publicId={ID} viewer={viewer} />);
    const form = await screen.findByRole("form", { name: "Recommendation" });
    await user.click(within(form).getByRole("radio", { name: "Reprove" }));
    await user.click(await within(form).findByRole("checkbox", { name: /Document expired/ }));
    const comment = within(form).getByLabelText("Comment (required for a reprove)");
    await user.type(comment, "Blurry document photo.");
    await user.keyboard("{Control>}{Enter}{/Control}");
    expect(screen.getByRole("heading", { name: /Case/ })).toHaveFocus();
    // Pressed while the recommendation is in flight: kept, not typed, applied once it is recorded.
    await user.keyboard("j");
    expect(comment).toHaveValue("Blurry document photo.");
    expect(router.push).not.toHaveBeenCalled();
    recorded.release();
    await waitFor(() => expect(router.push).toHaveBeenCalledWith(caseHref("ver-next", "")));
    expect(api.callsTo(`POST /api/cases/${ID}/outcome`).map((call) => call.body)).toEqual([
      { recommendation: "reprove", reasons: ["document_expired"], comment: "Blurry document photo." },
    ]);
  });
});

describe("CaseWork: taking the case as the team's setting says", () => {
  it("x on an unassigned case takes it (on first decision, the default) and opens the form on reprove", async () => {
    const api = mockApi({
      [`GET /api/cases/${ID}`]: [read(caseDetail(ID)), read(caseDetail(ID, { assignee: ANALYST }))],
      "GET /api/cases/reasons": reasonCatalogue,
      [`POST /api/cases/${ID}/assignment`]: { assigneeId: ANALYST.id },
    });
    const { user } = renderWithProviders(<CaseWork publicId={ID} viewer={viewer} />);
    await screen.findByRole("button", { name: "Assign to me" });
    await user.keyboard("x");
    const form = await screen.findByRole("form", { name: "Recommendation" });
    await waitFor(() => expect(within(form).getByRole("radio", { name: "Reprove" })).toBeChecked());
    expect(api.callsTo(`POST /api/cases/${ID}/assignment`).map((call) => call.body)).toEqual([{ assignee: "me" }]);
  });

  it("x on a case someone took meanwhile says who holds it, and opens no form", async () => {
    mockApi({
      [`GET /api/cases/${ID}`]: [read(caseDetail(ID)), read(caseDetail(ID, { assignee: OTHER }))],
      "GET /api/cases/reasons": reasonCatalogue,
      [`POST /api/cases/${ID}/assignment`]: apiError(409, { code: "conflict", message: `This case is assigned to ${OTHER.email}.` }),
    });
    const { user } = renderWithProviders(<CaseWork publicId={ID} viewer={viewer} />);
    await screen.findByRole("button", { name: "Assign to me" });
    await user.keyboard("x");
    expect(await screen.findByText(`This case is assigned to ${OTHER.email}.`, { exact: false })).toBeVisible();
    expect(screen.queryByRole("form", { name: "Recommendation" })).not.toBeInTheDocument();
  });

  it("never: x says the case must be taken first, and sends nothing", async () => {
    const api = mockApi({ [`GET /api/cases/${ID}`]: read(caseDetail(ID), "never"), "GET /api/cases/reasons": reasonCatalogue });
    const { user } = renderWithProviders(<CaseWork publicId={ID} viewer={viewer} />);
    await screen.findByRole("button", { name: "Assign to me" });
    await user.keyboard("x");
    expect(await screen.findByTestId("case-must-take")).toHaveTextContent("Take this case first");
    expect(api.callsTo(`POST /api/cases/${ID}/assignment`)).toHaveLength(0);
  });

  it("on open: opening an unassigned case takes it once", async () => {
    const api = mockApi({
      [`GET /api/cases/${ID}`]: [read(caseDetail(ID), "on_open"), read(caseDetail(ID, { assignee: ANALYST }), "on_open")],
      "GET /api/cases/reasons": reasonCatalogue,
      [`POST /api/cases/${ID}/assignment`]: { assigneeId: ANALYST.id },
    });
    renderWithProviders(<CaseWork publicId={ID} viewer={viewer} />);
    expect(await screen.findByRole("form", { name: "Recommendation" })).toBeVisible();
    expect(api.callsTo(`POST /api/cases/${ID}/assignment`).map((call) => call.body)).toEqual([{ assignee: "me" }]);
  });

  it("on open: a case someone holds is left to them", async () => {
    const api = mockApi({
      [`GET /api/cases/${ID}`]: read(caseDetail(ID, { assignee: OTHER }), "on_open"),
      "GET /api/cases/reasons": reasonCatalogue,
    });
    renderWithProviders(<CaseWork publicId={ID} viewer={viewer} />);
    expect(await screen.findByText(`Taken by ${OTHER.email}.`, { exact: false })).toBeVisible();
    expect(api.callsTo(`POST /api/cases/${ID}/assignment`)).toHaveLength(0);
  });
});
