import { screen, waitFor, within } from "@testing-library/react";
import { describe, expect, it } from "vitest";

import { roleChoices } from "@/lib/staff/rules";
import type { StaffListEntry } from "@/lib/staff/types";
import { apiError, mockApi, renderWithProviders, router, type ApiAnswer } from "@/test/render";

import { StaffAdmin, StaffNotice } from "./staff-admin";
import { StaffTable } from "./staff-table";

/*
 * The staff page's role picker, through the staff list as an admin meets it (the page's server-drawn table with its
 * row islands inside StaffAdmin): every built-in role and every custom
 * role offered, the choice sent through PATCH /api/staff/{id} (its step-up asked in place, the request sent again),
 * a role with fewer permissions asked about first, and one's own role not offered for change.
 */

const ME = "00000000-0000-4000-8000-000000000001";
const ANA = "00000000-0000-4000-8000-000000000002";
const NIGHT = "00000000-0000-4000-8000-0000000000aa";
const roles = roleChoices([{ id: NIGHT, name: "Night shift", permissions: ["cases.read", "cases.work", "verifications.read"] }]);

function member(id: string, name: string, role: string, customRoleName: string | null = null): StaffListEntry {
  return {
    id,
    email: `${name.toLowerCase().replace(/ /g, ".")}@example.com`,
    name,
    role,
    customRoleName,
    disabled: false,
    away: false,
    mustChangePassword: false,
    hasPassword: true,
    oidcLinked: false,
    ssoOnly: false,
    lastSignInAt: "2026-03-10T11:00:00Z",
    createdAt: "2026-01-01T00:00:00Z",
    updatedAt: "2026-01-01T00:00:00Z",
    signIn: { lockedUntil: null, lockedAddresses: 0, recentFailures: 0, accountLocked: false },
    factorCount: 0,
    usageToday: { lookup: 0, kyc_start: 0, export_rows: 0, media_view: 0, sms_send: 0, cpf_search: 0 },
  };
}

const staff = [member(ME, "Admin Me", "admin"), member(ANA, "Ana Souza", "analyst")];

function renderPage(patch: ApiAnswer | ApiAnswer[] = ({ body }: { body: unknown }) => ({ user: { ...staff[1], ...(body as object) } })) {
  const api = mockApi({
    [`PATCH /api/staff/${ANA}`]: patch,
    "GET /api/account/factors": { stepUpMethods: ["password"] },
    "POST /api/account/step-up": { verifiedAt: "2026-03-10T12:00:00Z", until: "2026-03-10T12:05:00Z" },
  });
  const page = (
    <StaffAdmin currentUserId={ME} roles={roles}>
      <StaffNotice />
      <StaffTable staff={staff} currentUserId={ME} />
    </StaffAdmin>
  );
  return { api, ...renderWithProviders(page, { url: "/admin/staff" }) };
}

async function openPicker(user: ReturnType<typeof renderPage>["user"]) {
  await user.click(await screen.findByRole("button", { name: "Change role: Ana Souza" }));
  return screen.findByRole("dialog", { name: "Role of Ana Souza" });
}

describe("the staff page's role picker", () => {
  it("offers every built-in role and every custom role, the current one checked and marked", async () => {
    const { user } = renderPage();
    const dialog = await openPicker(user);
    const group = within(dialog).getByRole("group", { name: "Role" });
    const radios = within(group).getAllByRole("radio");
    expect(radios.map((radio) => radio.getAttribute("value"))).toEqual(["viewer", "analyst", "reviewer", "auditor", "admin", NIGHT]);
    expect(within(group).getByRole("radio", { name: "Analyst" })).toBeChecked();
    expect(within(group).getByRole("radio", { name: "Analyst" })).toHaveAccessibleDescription(expect.stringContaining("current"));
    expect(within(group).getByRole("radio", { name: "Night shift" })).toHaveAccessibleDescription("Custom · 3 permissions");
    // Nothing to send while the choice is the current role.
    expect(within(dialog).getByRole("button", { name: "Change role" })).toBeDisabled();
  });

  it("gives a custom role after the step-up the API asks for, sending the same change again", async () => {
    const refusal = apiError(401, { code: "step_up_required", message: "A recent second factor is needed." });
    const { user, api } = renderPage([refusal, { user: { ...staff[1], role: NIGHT, customRoleName: "Night shift" } }]);
    const dialog = await openPicker(user);
    // Night shift lacks some of the analyst's permissions: a demotion, asked about first.
    await user.click(within(dialog).getByRole("radio", { name: "Night shift" }));
    await user.click(within(dialog).getByRole("button", { name: "Change role" }));
    const confirm = await screen.findByRole("dialog", { name: "Change the role of Ana Souza to Night shift?" });
    expect(api.callsTo(`PATCH /api/staff/${ANA}`)).toHaveLength(0);
    expect(confirm).toHaveTextContent(/will lose \d+ permissions/);
    await user.click(within(confirm).getByRole("button", { name: "Change role" }));

    const stepUp = await screen.findByRole("dialog", { name: "Confirm it is you" });
    await user.type(within(stepUp).getByLabelText("Password"), "secret password");
    await user.click(within(stepUp).getByRole("button", { name: "Confirm" }));
    await waitFor(() => expect(api.callsTo(`PATCH /api/staff/${ANA}`)).toHaveLength(2));
    expect(api.callsTo(`PATCH /api/staff/${ANA}`).map((call) => call.body)).toEqual([{ role: NIGHT }, { role: NIGHT }]);
    await waitFor(() => expect(screen.queryByRole("dialog")).not.toBeInTheDocument());
  });

  it("gives a role holding at least as much at once, without asking", async () => {
    const { user, api } = renderPage();
    const dialog = await openPicker(user);
    await user.click(within(dialog).getByRole("radio", { name: "Admin" }));
    await user.click(within(dialog).getByRole("button", { name: "Change role" }));
    await waitFor(() => expect(api.callsTo(`PATCH /api/staff/${ANA}`)).toHaveLength(1));
    expect(api.callsTo(`PATCH /api/staff/${ANA}`)[0]?.body).toEqual({ role: "admin" });
    expect(screen.queryByRole("dialog", { name: /Change the role/ })).not.toBeInTheDocument();
    // The list is drawn again by the server, with the member's new role.
    await waitFor(() => expect(router.refresh).toHaveBeenCalledTimes(1));
  });

  it("shows the server's refusal in the picker, in the member's words, and stays open", async () => {
    const { user } = renderPage(apiError(403, { code: "permission_not_held", message: "Server text in English." }));
    const dialog = await openPicker(user);
    await user.click(within(dialog).getByRole("radio", { name: "Admin" }));
    await user.click(within(dialog).getByRole("button", { name: "Change role" }));
    // The catalogue's sentence for the code (errors.permission_not_held), not the server's English message.
    expect(await within(dialog).findByRole("alert")).toHaveTextContent(
      "The change was not saved: You can grant only permissions you hold yourself, and change only members and roles whose permissions you all hold.",
    );
    expect(within(dialog).getByRole("radio", { name: "Admin" })).toBeChecked();
  });

  it("does not let a member change their own role", async () => {
    renderPage();
    const own = await screen.findByRole("button", { name: "Change role: Admin Me" });
    expect(own).toBeDisabled();
    expect(own).toHaveAttribute("title", "Nobody changes their own role or access: another member must.");
  });
});
