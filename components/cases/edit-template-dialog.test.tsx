import { screen, waitFor, within } from "@testing-library/react";
import type { UserEvent } from "@testing-library/user-event";
import { describe, expect, it } from "vitest";

import type { CaseTemplate } from "@/lib/cases/templates";
import { reasonCatalogue } from "@/test/case-fixtures";
import { apiError, mockApi, renderWithProviders, type ApiAnswer } from "@/test/render";

import { TemplateList } from "./template-list";

/*
 * Editing a decision template from its list: the dialog holds the template as it is (kind, name, reasons, comment
 * with its placeholders), sends only what changed through PATCH, closes on success and the list is read again; a
 * refusal naming a field is shown next to that field (tied to it) and the dialog stays open. Keyboard only: the
 * Edit button opens it with Enter, Escape closes it and focus goes back to that button. Templates the member may
 * not change have no Edit.
 */

const BLURRY: CaseTemplate = {
  id: "6b0c9a52-3f4e-4c1d-9a7b-2e5f8d1c0a11",
  kind: "reprove",
  scope: "team",
  name: "Blurry photo",
  reasons: ["low_image_quality"],
  comment: "{failing_step} failed: blurry photo ({ref_id}).",
  editable: true,
  updatedAt: "2026-03-09T12:00:00Z",
};
const READ_ONLY: CaseTemplate = { ...BLURRY, id: "0d7e1f2a-9b3c-4d5e-8f60-718293a4b5c6", name: "Not mine", editable: false };
const PATH = `/api/cases/templates/${BLURRY.id}`;

async function renderList(patch: ApiAnswer | ApiAnswer[] = { template: BLURRY }) {
  const api = mockApi({
    "GET /api/cases/reasons": reasonCatalogue,
    "GET /api/cases/templates": { templates: [BLURRY, READ_ONLY] },
    [`PATCH ${PATH}`]: patch,
  });
  const view = renderWithProviders(<TemplateList scope="team" />);
  const list = await screen.findByRole("list", { name: "The team's templates" });
  return { api, list, ...view };
}

/** Opens the edit dialog of Blurry photo and waits for its code and the reason catalogue. */
async function openDialog(user: UserEvent) {
  await user.click(screen.getByRole("button", { name: "Edit the template Blurry photo" }));
  // The dialog's code loads when it first opens (components/ui/dialog.tsx): waited for, however slow the machine.
  const dialog = await screen.findByRole("dialog", { name: "Edit the template “Blurry photo”" }, { timeout: 15_000 });
  await within(dialog).findByRole("checkbox", { name: /Image quality too low/ });
  return dialog;
}

describe("EditTemplateDialog", () => {
  it("opens with the template as it is, and offers Edit only where the member may change it", async () => {
    const { user, list } = await renderList();
    expect(within(list).queryByRole("button", { name: "Edit the template Not mine" })).toBeNull();
    const dialog = await openDialog(user);
    expect(within(dialog).getByRole("radio", { name: "Reprove" })).toBeChecked();
    expect(within(dialog).getByLabelText("Name")).toHaveValue("Blurry photo");
    expect(
      within(dialog)
        .getAllByRole("checkbox", { checked: true })
        .map((box) => box.getAttribute("value")),
    ).toEqual(["low_image_quality"]);
    expect(within(dialog).getByRole("textbox", { name: "Comment" })).toHaveValue("{failing_step} failed: blurry photo ({ref_id}).");
    expect(within(dialog).getByText(/Placeholders filled from the case when applied: \{verification_date\}/)).toBeVisible();
  });

  it("sends only what changed, a new kind with reasons of that kind, and closes", async () => {
    const { user, api } = await renderList();
    const dialog = await openDialog(user);
    // Another kind unticks the reasons it may not cite.
    await user.click(within(dialog).getByRole("radio", { name: "Approve" }));
    expect(within(dialog).queryAllByRole("checkbox", { checked: true })).toHaveLength(0);
    await user.click(within(dialog).getByRole("checkbox", { name: /Identity confirmed/ }));
    const comment = within(dialog).getByRole("textbox", { name: "Comment" });
    await user.clear(comment);
    await user.type(comment, "Checked on {{verification_date}.");
    await user.click(within(dialog).getByRole("button", { name: "Save changes" }));
    await waitFor(() => expect(screen.queryByRole("dialog")).toBeNull());
    expect(api.callsTo(`PATCH ${PATH}`).map((call) => call.body)).toEqual([
      { kind: "approve", reasons: ["identity_confirmed"], comment: "Checked on {verification_date}." },
    ]);
    // The list is read again, so it shows the template as saved.
    await waitFor(() => expect(api.callsTo("GET /api/cases/templates").length).toBeGreaterThan(1));
  });

  it("shows a refusal next to the field it names, and stays open with what was typed", async () => {
    const { user, api } = await renderList([
      apiError(400, {
        code: "validation",
        message: "Invalid input: comment: must use known placeholders only: {person} is not one of {verification_date}.",
        fields: ["comment"],
      }),
      apiError(409, { code: "conflict", message: "A template of this kind already has this name.", fields: ["name"] }),
    ]);
    const dialog = await openDialog(user);
    const comment = within(dialog).getByRole("textbox", { name: "Comment" });
    await user.type(comment, " For {{person}.");
    await user.click(within(dialog).getByRole("button", { name: "Save changes" }));
    await waitFor(() => expect(comment).toHaveAttribute("aria-invalid", "true"));
    expect(comment).toHaveAccessibleDescription(expect.stringContaining("must use known placeholders only: {person}"));
    expect(comment).toHaveValue("{failing_step} failed: blurry photo ({ref_id}). For {person}.");
    expect(within(dialog).getByLabelText("Name")).not.toHaveAttribute("aria-invalid");
    expect(within(dialog).queryByRole("alert")).toBeNull();

    const name = within(dialog).getByLabelText("Name");
    await user.clear(name);
    await user.type(name, "Expired");
    await user.click(within(dialog).getByRole("button", { name: "Save changes" }));
    await waitFor(() => expect(name).toHaveAttribute("aria-invalid", "true"));
    expect(name).toHaveAccessibleDescription("A template of this kind already has this name.");
    expect(comment).not.toHaveAttribute("aria-invalid");
    expect(api.callsTo(`PATCH ${PATH}`).at(-1)?.body).toEqual({
      name: "Expired",
      comment: "{failing_step} failed: blurry photo ({ref_id}). For {person}.",
    });
    expect(screen.getByRole("dialog")).toBeInTheDocument();
  });

  it("works from the keyboard: Enter opens it, Escape closes it and focus goes back to Edit; nothing changed, nothing sent", async () => {
    const { user, api } = await renderList();
    const edit = screen.getByRole("button", { name: "Edit the template Blurry photo" });
    await waitFor(() => expect(edit).toBeEnabled());
    edit.focus();
    await user.keyboard("{Enter}");
    const dialog = await screen.findByRole("dialog", { name: "Edit the template “Blurry photo”" }, { timeout: 15_000 });
    await waitFor(() => expect(dialog).toContainElement(document.activeElement as HTMLElement));
    await user.keyboard("{Escape}");
    await waitFor(() => expect(screen.queryByRole("dialog")).toBeNull());
    await waitFor(() => expect(edit).toHaveFocus());

    // Saved as it was: closed without a request.
    await user.keyboard("{Enter}");
    const again = await screen.findByRole("dialog", { name: "Edit the template “Blurry photo”" });
    await within(again).findByRole("checkbox", { name: /Image quality too low/ });
    await user.click(within(again).getByRole("button", { name: "Save changes" }));
    await waitFor(() => expect(screen.queryByRole("dialog")).toBeNull());
    expect(api.callsTo(`PATCH ${PATH}`)).toHaveLength(0);
  });
});
