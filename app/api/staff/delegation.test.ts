import { eq } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";

import { PATCH as editRole } from "@/app/api/roles/[id]/route";
import { POST as postRole } from "@/app/api/roles/route";
import { PERMISSIONS, type Permission } from "@/lib/auth/permissions";
import { LastHolderError, staffAccess } from "@/lib/auth/server/staff-access";
import { createStaff, updateStaff } from "@/lib/auth/server/staff-store";
import { staffUsers } from "@/lib/auth/server/tables";
import type { StaffSession, StaffUserDto } from "@/lib/auth/types";
import { createRole, updateRole } from "@/lib/roles/server/roles";
import type { RoleDto } from "@/lib/roles/types";
import { apiRequest, createTestStaff, sessionCookieFor } from "@/test/auth";
import {
  describeEachDatabase,
  setProcessDatabase,
  withDatabase,
  withProcessDatabase,
  withTestEnvironment,
  type TestDatabase,
} from "@/test/db";

import { PATCH as changeStaff } from "./[id]/route";
import { POST as inviteStaff } from "./route";

/*
 * Delegation bounded (docs/permissions.md#delegation): a member grants only what they hold (a role made or
 * edited, an invitation, a member's role change), acts only on accounts and roles whose permissions they all hold,
 * never edits their own role or access, and the last active holder of roles.manage or staff.manage keeps it.
 */

type Json = { error?: { code: string; message: string }; oneTimePassword?: string; role?: RoleDto; user?: StaffUserDto };
const read = async (response: Response) => (await response.json()) as Json;
const params = (id: string) => ({ params: Promise.resolve({ id }) });
const VIEWER_LIKE: Permission[] = ["verifications.read", "cases.read"];
let counter = 0;
const unique = (label: string) => `${label} ${Date.now()}-${(counter += 1)}`;

/** What a signed-in admin is to the lib functions (the routes pass their session). */
function adminActor(user: StaffUserDto): Pick<StaffSession, "id" | "email" | "role" | "permissions"> {
  return { id: user.id, email: user.email, role: "admin", permissions: PERMISSIONS };
}

async function memberWithRole(db: TestDatabase["db"], roleId: string, label: string): Promise<{ user: StaffUserDto; cookie: string }> {
  const user = await createStaff(db, {
    email: `${label}-${Date.now()}-${(counter += 1)}@test.local`,
    name: label,
    role: roleId,
    passwordHash: null,
    mustChangePassword: false,
  });
  return { user, cookie: await sessionCookieFor(db, user) };
}

describeEachDatabase("delegation on $name", ({ name, open }) => {
  withTestEnvironment();
  const handle = withProcessDatabase(open);
  let admin: StaffUserDto;

  beforeAll(async () => {
    admin = await createTestStaff(handle.db, { role: "admin" });
  });

  const newRole = (permissions: Permission[], label = "Role") =>
    createRole(handle.db, { actor: adminActor(admin), ip: null }, { name: unique(label), permissions });
  const patchRole = (cookie: string, id: string, body: unknown) =>
    editRole(apiRequest(`/api/roles/${id}`, { method: "PATCH", cookie, body }), params(id));
  const patchStaff = (cookie: string, id: string, body: unknown) =>
    changeStaff(apiRequest(`/api/staff/${id}`, { method: "PATCH", cookie, body }), params(id));
  const invite = (cookie: string, role: string, email = `invited-${Date.now()}-${(counter += 1)}@test.local`) =>
    inviteStaff(apiRequest("/api/staff", { method: "POST", cookie, body: { email, name: "Invited", role } }));

  it("a role manager grants only the permissions they hold, and never edits the role they hold", async () => {
    const managers = await newRole(["roles.manage", ...VIEWER_LIKE], "Role managers");
    const { cookie } = await memberWithRole(handle.db, managers.id, "role-manager");

    const everything = await postRole(
      apiRequest("/api/roles", { method: "POST", cookie, body: { name: unique("All"), permissions: PERMISSIONS } }),
    );
    expect(everything.status).toBe(403);
    const refused = (await read(everything)).error!;
    expect(refused.code).toBe("permission_not_held");
    expect(refused.message).toContain("staff.manage");
    const within = await postRole(
      apiRequest("/api/roles", { method: "POST", cookie, body: { name: unique("Mine"), permissions: ["cases.read"] } }),
    );
    expect(within.status).toBe(201);
    const mine = (await read(within)).role!;

    // Their own role: not even a rename, let alone every permission.
    for (const body of [{ permissions: PERMISSIONS }, { name: unique("Renamed") }]) {
      const own = await patchRole(cookie, managers.id, body);
      expect(own.status).toBe(403);
      expect((await read(own)).error!.code).toBe("own_access");
    }
    // Another role: adding what they lack is refused, adding what they hold is not.
    const adding = await patchRole(cookie, mine.id, { permissions: ["cases.read", "media.read"] });
    expect(adding.status).toBe(403);
    expect((await read(adding)).error).toMatchObject({ code: "permission_not_held", message: expect.stringContaining("media.read") });
    expect((await patchRole(cookie, mine.id, { permissions: ["cases.read", "verifications.read"] })).status).toBe(200);
    // A role holding what they lack is not theirs to edit, even to take away.
    const auditors = await newRole(["audit.read", "cases.read"], "Auditors");
    const stronger = await patchRole(cookie, auditors.id, { permissions: ["cases.read"] });
    expect(stronger.status).toBe(403);
    expect((await read(stronger)).error!.code).toBe("permission_not_held");

    const [row] = await staffAccess(handle.db, [(await memberWithRole(handle.db, managers.id, "probe")).user.id]);
    expect(row?.permissions).toEqual(["verifications.read", "cases.read", "roles.manage"]);
  });

  it("a staff manager never makes themselves admin nor invites one, and changes only members they outrank", async () => {
    const staffManagers = await newRole(["staff.manage", ...VIEWER_LIKE], "Staff managers");
    const { user: manager, cookie } = await memberWithRole(handle.db, staffManagers.id, "staff-manager");

    for (const body of [{ role: "admin" }, { disabled: true }]) {
      const own = await patchStaff(cookie, manager.id, body);
      expect(own.status).toBe(403);
      expect((await read(own)).error!.code).toBe("own_access");
    }
    const email = `would-be-admin-${Date.now()}@test.local`;
    const adminInvite = await invite(cookie, "admin", email);
    expect(adminInvite.status).toBe(403);
    const answer = await read(adminInvite);
    expect(answer.error!.code).toBe("permission_not_held");
    expect(answer.oneTimePassword).toBeUndefined();
    expect(await handle.db.select().from(staffUsers).where(eq(staffUsers.email, email))).toEqual([]);

    const viewerInvite = await invite(cookie, "viewer");
    expect(viewerInvite.status).toBe(201);
    const viewer = (await read(viewerInvite)).user!;
    const upward = await patchStaff(cookie, viewer.id, { role: "analyst" });
    expect(upward.status).toBe(403);
    expect((await read(upward)).error!.code).toBe("permission_not_held");
    expect((await patchStaff(cookie, viewer.id, { role: staffManagers.id })).status).toBe(200);

    // An admin holds what the manager lacks: neither demoted nor disabled by them.
    for (const body of [{ role: "viewer" }, { disabled: true }]) {
      const outranked = await patchStaff(cookie, admin.id, body);
      expect(outranked.status).toBe(403);
      expect((await read(outranked)).error!.code).toBe("permission_not_held");
    }
    const [still] = await handle.db
      .select({ role: staffUsers.role, disabled: staffUsers.disabled })
      .from(staffUsers)
      .where(eq(staffUsers.id, admin.id));
    expect(still).toEqual({ role: "admin", disabled: false });
  });

  describe("the last holder of roles.manage and staff.manage", () => {
    const only = withDatabase(open);

    it("keeps it: no role change, disabling or role edit leaves nobody holding it (409 last_holder)", async () => {
      // A database of its own: its one admin is disabled, so the two managers' role is all that holds them.
      const founder = await createTestStaff(only.db, { role: "admin" });
      const managers = await createRole(
        only.db,
        { actor: adminActor(founder), ip: null },
        { name: unique("Managers"), permissions: ["staff.manage", "roles.manage"] },
      );
      const member = (label: string) =>
        createStaff(only.db, {
          email: `${label}-${Date.now()}@test.local`,
          name: label,
          role: managers.id,
          passwordHash: null,
          mustChangePassword: false,
        });
      const first = await member("first");
      // Past the last-admin rule (which keeps one admin, holding everything): no active admin is left.
      await only.db.update(staffUsers).set({ disabled: true }).where(eq(staffUsers.id, founder.id));

      await expect(updateStaff(only.db, first.id, { role: "viewer" })).rejects.toBeInstanceOf(LastHolderError);
      await expect(updateStaff(only.db, first.id, { disabled: true })).rejects.toMatchObject({ code: "last_holder" });
      const edit = updateRole(only.db, { actor: adminActor(founder), ip: null }, managers.id, { permissions: ["staff.manage"] });
      await expect(edit).rejects.toMatchObject({ code: "last_holder", message: expect.stringContaining("roles.manage") });

      // With a second holder, the first may go.
      await member("second");
      expect((await updateStaff(only.db, first.id, { role: "viewer" })).after.role).toBe("viewer");
    });

    if (name === "postgres") {
      it("two admins demoting each other at the same moment: one succeeds, the other is refused", async () => {
        const race = await open();
        setProcessDatabase(race);
        try {
          const [a, b] = [await createTestStaff(race.db, { role: "admin" }), await createTestStaff(race.db, { role: "admin" })];
          const [aCookie, bCookie] = [await sessionCookieFor(race.db, a), await sessionCookieFor(race.db, b)];
          const answers = await Promise.all([patchStaff(aCookie, b.id, { role: "viewer" }), patchStaff(bCookie, a.id, { role: "viewer" })]);
          expect(answers.map((answer) => answer.status).sort()).toEqual([200, expect.any(Number)]);
          const refused = answers.find((answer) => answer.status !== 200);
          expect([403, 409]).toContain(refused?.status);
          const admins = await race.db.select({ id: staffUsers.id }).from(staffUsers).where(eq(staffUsers.role, "admin"));
          expect(admins).toHaveLength(1);
        } finally {
          setProcessDatabase(handle);
          await race.dispose();
        }
      });

      it("two managers demoting each other at the same moment: one succeeds, the other is refused", async () => {
        setProcessDatabase(only);
        try {
          const founderHere = await createTestStaff(only.db, { role: "admin" });
          const managers = await createRole(
            only.db,
            { actor: adminActor(founderHere), ip: null },
            {
              name: unique("Racing managers"),
              permissions: ["staff.manage", "roles.manage", ...VIEWER_LIKE],
            },
          );
          // Nobody else holds staff.manage or roles.manage: every earlier account is disabled.
          await only.db.update(staffUsers).set({ disabled: true });
          const x = await memberWithRole(only.db, managers.id, "x");
          const y = await memberWithRole(only.db, managers.id, "y");
          const holders = async () =>
            (await staffAccess(only.db)).filter((entry) => !entry.disabled && entry.permissions.includes("staff.manage")).length;
          expect(await holders()).toBe(2);

          const answers = await Promise.all([
            patchStaff(x.cookie, y.user.id, { role: "viewer" }),
            patchStaff(y.cookie, x.user.id, { role: "viewer" }),
          ]);
          const statuses = answers.map((answer) => answer.status).sort();
          expect(statuses[0]).toBe(200);
          expect([403, 409]).toContain(statuses[1]);
          const refused = await read(answers.find((answer) => answer.status !== 200)!);
          // Refused either at the rule (the other's change is not yet committed) or at the door (it is: the
          // refused member no longer holds staff.manage when its own request is authorised).
          expect(["last_holder", "permission_not_held", "forbidden"]).toContain(refused.error!.code);
          expect(await holders()).toBe(1);
        } finally {
          setProcessDatabase(handle);
        }
      });
    }
  });
});
