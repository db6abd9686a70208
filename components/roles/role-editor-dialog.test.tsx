import { screen, waitFor, within } from "@testing-library/react";
import { describe, expect, it, vi } from "vitest";

import { permissionCatalogue } from "@/lib/roles/server/catalogue";
import type { RoleDto } from "@/lib/roles/types";
import { ApiRequestError } from "@/lib/shared/api-client/api-request";
import { mockApi, renderWithProviders, router } from "@/test/render";

import { RoleCard } from "./role-card";
import { RoleEditorDialog } from "./role-editor-dialog";
import { NewRoleButton, RolesActions, RolesNotice } from "./roles-actions";

/*
 * The custom role form: the catalogue as checkboxes explained one by one, the name and permissions handed on,
 * the same rule as the API checked before anything is sent, the server's refusals shown; and, through the
 * roles page's islands, the requests a new role and a retire send, after which the page is drawn again.
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

/** The roles page as the server draws it: the islands inside RolesActions, with the reviewer's card. */
function renderRolesPage() {
  return renderWithProviders(
    <RolesActions catalogue={catalogue}>
      <NewRoleButton />
      <RolesNotice />
      <ul>
        <RoleCard role={reviewer} label={reviewer.name} catalogue={catalogue} />
      </ul>
    </RolesActions>,
    { url: "/admin/roles" },
  );
}

describe("The roles page's islands", () => {
  it("a new role: sends the name and permissions, closes the form, says it is saved and has the page drawn again", async () => {
    const api = mockApi({
      "POST /api/roles": ({ body }) => ({ status: 201, body: { role: { ...reviewer, ...(body as object) } } }),
    });
    const { user } = renderRolesPage();
    await user.click(await screen.findByRole("button", { name: "New role" }));
    const dialog = await screen.findByRole("dialog", { name: "New role" });
    await user.type(within(dialog).getByLabelText("Name"), "Compliance reviewer");
    await user.click(within(dialog).getByRole("checkbox", { name: /Read the audit log/ }));
    await user.click(within(dialog).getByRole("button", { name: "Save" }));

    expect(await screen.findByText("Saved.")).toBeVisible();
    expect(api.callsTo("POST /api/roles")[0]?.body).toEqual({ name: "Compliance reviewer", permissions: ["audit.read"] });
    await waitFor(() => expect(screen.queryByRole("dialog")).not.toBeInTheDocument());
    expect(router.refresh).toHaveBeenCalledTimes(1);
  });

  it("a retire: asks first, sends it for the card's role, says it is done and has the page drawn again", async () => {
    const api = mockApi({ "DELETE /api/roles/role-reviewer": { retired: "role-reviewer" } });
    const { user } = renderRolesPage();
    await user.click(screen.getByRole("button", { name: "Retire: Compliance reviewer" }));
    const confirm = await screen.findByRole("dialog", { name: /Compliance reviewer/ });
    expect(api.callsTo("DELETE /api/roles/role-reviewer")).toHaveLength(0);
    await user.click(within(confirm).getByRole("button", { name: "Retire role" }));
    expect(await screen.findByText("Role retired.")).toBeVisible();
    expect(api.callsTo("DELETE /api/roles/role-reviewer")).toHaveLength(1);
    expect(router.refresh).toHaveBeenCalledTimes(1);
  });
});
