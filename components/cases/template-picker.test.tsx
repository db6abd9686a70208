import { screen, waitFor, within } from "@testing-library/react";
import { describe, expect, it } from "vitest";

import { BUILT_IN_PERMISSIONS } from "@/lib/auth/permissions";
import type { CaseTemplate } from "@/lib/cases/templates";
import { ANALYST, caseDetail, reasonCatalogue } from "@/test/case-fixtures";
import { mockApi, renderWithProviders } from "@/test/render";

import { CaseWork } from "./case-work";
import { TemplateFactsContext } from "./template-facts";

/*
 * The decision form's templates: the chosen recommendation's, numbered (the team's first); `t` then a number, or a
 * typed prefix and Enter, ticks the template's reasons and writes its comment with the case's facts in place of its
 * placeholders, and the number keys alone still tick reasons. Saving the form as a template sends no outcome.
 */

const ID = "ver-templates-1";
const viewer = { id: ANALYST.id, permissions: BUILT_IN_PERMISSIONS.analyst };

const template = (patch: Partial<CaseTemplate>): CaseTemplate => ({
  id: crypto.randomUUID(),
  kind: "reprove",
  scope: "personal",
  name: "Template",
  reasons: ["other"],
  comment: "",
  editable: true,
  updatedAt: "2026-03-09T12:00:00Z",
  ...patch,
});

const TEMPLATES = [
  template({
    scope: "team",
    name: "Expired document",
    reasons: ["document_expired"],
    comment: "Expired, seen on {verification_date} ({ref_id}).",
  }),
  template({
    scope: "team",
    name: "Blurry photo",
    reasons: ["low_image_quality"],
    comment: "{failing_step} failed: blurry photo, flow {flow}.",
  }),
  template({ name: "Mine: face", reasons: ["facematch_doubt", "other"], comment: "Face does not match." }),
  template({ kind: "approve", scope: "team", name: "All good", reasons: ["identity_confirmed"], comment: "Checked." }),
];

async function renderPanel({ refId = "REF-77" as string | null } = {}) {
  const api = mockApi({
    [`GET /api/cases/${ID}`]: { case: caseDetail(ID, { assignee: ANALYST, refId, verificationCreatedAt: "2026-03-09T15:00:00Z" }) },
    "GET /api/cases/reasons": reasonCatalogue,
    "GET /api/cases/templates": { templates: TEMPLATES },
    "POST /api/cases/templates": { status: 201, body: { template: TEMPLATES[2] } },
    [`POST /api/cases/${ID}/outcome`]: { outcomeState: "pending_confirmation" },
  });
  const view = renderWithProviders(
    <TemplateFactsContext.Provider value={{ failing_step: "OCR", flow: "default" }}>
      <CaseWork publicId={ID} viewer={viewer} />
    </TemplateFactsContext.Provider>,
  );
  const form = await screen.findByRole("form", { name: "Recommendation" });
  await within(form).findByRole("checkbox", { name: /Identity confirmed/ });
  return { api, form, ...view };
}

const ticked = (form: HTMLElement) =>
  within(form)
    .getAllByRole("checkbox")
    .filter((box) => (box as HTMLInputElement).checked)
    .map((box) => box.getAttribute("value"));

describe("TemplatePicker", () => {
  it("lists the chosen recommendation's templates, numbered, the team's first", async () => {
    const { user, form } = await renderPanel();
    const list = await within(form).findByRole("listbox", { name: "Templates of this recommendation" });
    expect(
      within(list)
        .getAllByRole("option")
        .map((option) => option.textContent),
    ).toEqual(["1All goodteam"]);
    await user.click(within(form).getByRole("radio", { name: "Reprove" }));
    expect(
      within(list)
        .getAllByRole("option")
        .map((option) => option.textContent),
    ).toEqual(["1Expired documentteam", "2Blurry phototeam", "3Mine: facemine"]);
  });

  it("a t pressed before the form's code ran takes the focus to the template box once the form is there", async () => {
    window.__earlyKeys = [{ key: "t", path: window.location.pathname, at: Date.now() }];
    try {
      const { form } = await renderPanel();
      await waitFor(() => expect(within(form).getByRole("combobox", { name: /Template/ })).toHaveFocus());
      expect(window.__earlyKeys).toEqual([]);
    } finally {
      delete window.__earlyKeys;
    }
  });

  it("t then a number applies that template: reasons ticked, placeholders filled, then Ctrl+Enter records it", async () => {
    const { user, form, api } = await renderPanel();
    screen.getByRole("heading", { name: /Case/ }).focus();
    await user.keyboard("x");
    await within(form).findByRole("option", { name: /Blurry photo/ });
    await user.keyboard("t");
    expect(within(form).getByRole("combobox", { name: /Template/ })).toHaveFocus();
    await user.keyboard("2");
    expect(ticked(form)).toEqual(["low_image_quality"]);
    const comment = within(form).getByLabelText(/Comment/);
    expect(comment).toHaveValue("OCR failed: blurry photo, flow default.");
    await waitFor(() => expect(comment).toHaveFocus());
    expect(within(form).getByRole("status")).toHaveTextContent("Template “Blurry photo” applied");
    // Still the analyst's to edit before recording.
    await user.type(comment, " Retake it.");
    await user.keyboard("{Control>}{Enter}{/Control}");
    await waitFor(() => expect(api.callsTo(`POST /api/cases/${ID}/outcome`)).toHaveLength(1));
    expect(api.callsTo(`POST /api/cases/${ID}/outcome`)[0]?.body).toEqual({
      recommendation: "reprove",
      reasons: ["low_image_quality"],
      comment: "OCR failed: blurry photo, flow default. Retake it.",
    });
  });

  it("keeps the number keys alone for reasons", async () => {
    const { user, form } = await renderPanel();
    screen.getByRole("heading", { name: /Case/ }).focus();
    await user.keyboard("x");
    await within(form).findByRole("option", { name: /Blurry photo/ });
    await user.keyboard("1");
    expect(ticked(form)).toEqual(["document_mismatch"]);
    expect(within(form).getByLabelText(/Comment/)).toHaveValue("");
  });

  it("finds a template by the start of its name; a fact the case lacks stays as its placeholder and is named", async () => {
    const { user, form } = await renderPanel({ refId: null });
    await user.click(within(form).getByRole("radio", { name: "Reprove" }));
    const box = within(form).getByRole("combobox", { name: /Template/ });
    await user.type(box, "exp");
    expect(
      within(form)
        .getAllByRole("option")
        .map((option) => option.textContent),
    ).toEqual(["1Expired documentteam"]);
    await user.keyboard("{Enter}");
    expect(ticked(form)).toEqual(["document_expired"]);
    // Four-digit year, in the display time zone; the ref_id is not known for this case.
    expect(within(form).getByLabelText(/Comment/)).toHaveValue("Expired, seen on 03/09/2026 ({ref_id}).");
    expect(within(form).getByRole("status")).toHaveTextContent("left to fill: {ref_id}");
  });

  it("saves the form as a personal template without recording anything", async () => {
    const { user, form, api } = await renderPanel();
    await user.click(within(form).getByRole("radio", { name: "Reprove" }));
    await user.click(within(form).getByRole("checkbox", { name: /Document expired/ }));
    await user.type(within(form).getByLabelText(/Comment/), "Expired on {{verification_date}.");
    await user.click(within(form).getByRole("button", { name: "Save as template" }));
    // The dialog's code loads when it first opens (components/ui/dialog.tsx): waited for, however slow the machine.
    const dialog = await screen.findByRole("dialog", { name: "Save as a Reprove template" }, { timeout: 15_000 });
    await user.type(within(dialog).getByLabelText("Name"), "Expired again");
    await user.click(within(dialog).getByRole("button", { name: "Save template" }));
    await waitFor(() => expect(api.callsTo("POST /api/cases/templates")).toHaveLength(1));
    expect(api.callsTo("POST /api/cases/templates")[0]?.body).toEqual({
      kind: "reprove",
      scope: "personal",
      name: "Expired again",
      reasons: ["document_expired"],
      comment: "Expired on {verification_date}.",
    });
    expect(api.callsTo(`POST /api/cases/${ID}/outcome`)).toHaveLength(0);
  });
});
