import { screen, waitFor, within } from "@testing-library/react";
import { describe, expect, it, vi } from "vitest";

import { RolesPageClient } from "@/app/(dashboard)/admin/roles/page-client";
import { BUILT_IN_PERMISSIONS } from "@/lib/auth/permissions";
import { permissionCatalogue } from "@/lib/roles/server/catalogue";
import type { RoleDto } from "@/lib/roles/types";
import { ApiRequestError } from "@/lib/shared/api-client/api-request";
import { mockApi, renderWithProviders } from "@/test/render";

import { RoleEditorDialog } from "./role-editor-dialog";

/*
 * The custom role form: the catalogue as checkboxes explained one by one, the name and permissions handed on,
 * the same rule as the API checked before anything is sent, the server's refusals shown; and, through the
 * roles page, the request a new role sends.
 */

const catalogue = permissionCatalogue("en");
const reviewer: RoleDto = {
  id: "role-reviewer",
  name: "Compliance reviewer",
  builtIn: false,
  permissions: ["audit.read", "audit.export"],
  members: 2,
  createdAt: "2026-03-01T12:00:00Z",
  updatedAt: null,
};

async function renderEditor({ role = null as RoleDto | null, error = null as ApiRequestError | null } = {}) {
  const onSave = vi.fn();
  const onOpenChange = vi.fn();
  const view = renderWithProviders(
    <RoleEditorDialog role={role} catalogue={catalogue} open onOpenChange={onOpenChange} onSave={onSave} pending={false} error={error} />,
  );
  // The dialog's content is loaded when it first opens (components/ui/dialog.tsx).
  return { onSave, onOpenChange, dialog: await screen.findByRole("dialog"), ...view };
}

describe("RoleEditorDialog", () => {
  it("lists every permission by group, each with its explanation", async () => {
    const { dialog } = await renderEditor();
    expect(dialog).toHaveAccessibleName("New role");
    const cases = within(dialog).getByRole("group", { name: "Cases" });
    const confirm = within(cases).getByRole("checkbox", { name: /Confirm outcomes/ });
    expect(confirm).not.toBeChecked();
    expect(confirm).toHaveAccessibleDescription(expect.stringMatching(/\S/));
    const count = catalogue.groups.reduce((total, group) => total + group.permissions.length, 0);
    expect(within(dialog).getAllByRole("checkbox")).toHaveLength(count);
  });

  it("hands on the name, tidied, and the permissions ticked", async () => {
    const { user, dialog, onSave } = await renderEditor();
    await user.type(within(dialog).getByLabelText("Name"), "  Night   shift ");
    await user.click(within(dialog).getByRole("checkbox", { name: /Read cases/ }));
    await user.click(within(dialog).getByRole("checkbox", { name: /Work cases/ }));
    await user.click(within(dialog).getByRole("button", { name: "Save" }));
    expect(onSave).toHaveBeenCalledWith({ name: "Night shift", permissions: ["cases.read", "cases.work"] });
  });

  it("refuses an empty name or a built-in role's name on the name field, and hands on nothing", async () => {
    const { user, dialog, onSave } = await renderEditor();
    const name = within(dialog).getByLabelText("Name");
    await user.click(within(dialog).getByRole("button", { name: "Save" }));
    expect(name).toHaveAttribute("aria-invalid", "true");
    expect(name).toHaveAccessibleDescription("Check the highlighted fields.");

    await user.type(name, "Admin");
    await user.click(within(dialog).getByRole("button", { name: "Save" }));
    expect(name).toHaveAttribute("aria-invalid", "true");
    expect(onSave).not.toHaveBeenCalled();
  });

  it("edits a role from what it holds", async () => {
    const { user, dialog, onSave } = await renderEditor({ role: reviewer });
    expect(dialog).toHaveAccessibleName("Edit role Compliance reviewer");
    expect(within(dialog).getByLabelText("Name")).toHaveValue("Compliance reviewer");
    const ticked = within(dialog)
      .getAllByRole("checkbox")
      .filter((box) => (box as HTMLInputElement).checked)
      .map((box) => box.getAttribute("value"));
    expect(ticked).toEqual(["audit.read", "audit.export"]);
    await user.click(within(dialog).getByRole("checkbox", { name: /Export the audit log/ }));
    await user.click(within(dialog).getByRole("button", { name: "Save" }));
    expect(onSave).toHaveBeenCalledWith({ name: "Compliance reviewer", permissions: ["audit.read"] });
  });

  it("says a name is taken on the name field, and any other refusal above the buttons", async () => {
    const { dialog, unmount } = await renderEditor({ error: new ApiRequestError(409, "conflict", "taken") });
    expect(within(dialog).getByLabelText("Name")).toHaveAccessibleDescription("A role with this name already exists.");
    unmount();
    await renderEditor({ error: new ApiRequestError(503, "upstream_unavailable", "The database is not answering.") });
    expect(screen.getByRole("dialog")).toHaveTextContent("The change was not saved: The database is not answering.");
  });

  it("Cancel closes it", async () => {
    const { user, dialog, onOpenChange } = await renderEditor();
    await user.click(within(dialog).getByRole("button", { name: "Cancel" }));
    expect(onOpenChange).toHaveBeenCalledWith(false);
  });
});

describe("The roles page: a new role", () => {
  it("sends the name and permissions, closes the form and says it is saved", async () => {
    const builtIn: RoleDto = { ...reviewer, id: "analyst", name: "analyst", builtIn: true, permissions: [...BUILT_IN_PERMISSIONS.analyst] };
    const api = mockApi({
      "GET /api/roles": { roles: [builtIn] },
      "GET /api/permissions": catalogue,
      "POST /api/roles": ({ body }) => ({ status: 201, body: { role: { ...reviewer, ...(body as object) } } }),
    });
    const { user } = renderWithProviders(<RolesPageClient />, { url: "/admin/roles" });
    await user.click(await screen.findByRole("button", { name: "New role" }));
    const dialog = await screen.findByRole("dialog", { name: "New role" });
    await user.type(within(dialog).getByLabelText("Name"), "Compliance reviewer");
    await user.click(within(dialog).getByRole("checkbox", { name: /Read the audit log/ }));
    await user.click(within(dialog).getByRole("button", { name: "Save" }));

    expect(await screen.findByText("Saved.")).toBeVisible();
    expect(api.callsTo("POST /api/roles")[0]?.body).toEqual({ name: "Compliance reviewer", permissions: ["audit.read"] });
    await waitFor(() => expect(screen.queryByRole("dialog")).not.toBeInTheDocument());
  });
});
