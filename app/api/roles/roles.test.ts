import { and, eq } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";

import { GET as reasons } from "@/app/api/cases/reasons/route";
import { GET as listPermissions } from "@/app/api/permissions/route";
import { PATCH as changeStaff } from "@/app/api/staff/[id]/route";
import { POST as inviteStaff } from "@/app/api/staff/route";
import { auditEvents } from "@/lib/audit-trail/server/tables";
import { BUILT_IN_PERMISSIONS, BUILT_IN_ROLES, PERMISSIONS } from "@/lib/auth/permissions";
import { sessionToken } from "@/lib/auth/server/require-role";
import { SessionCache } from "@/lib/auth/server/session-cache";
import type { StaffUserDto } from "@/lib/auth/types";
import { createDatabase } from "@/lib/db/client";
import type { RoleDto } from "@/lib/roles/types";
import { parseCookieHeader } from "@/lib/shared/cookie-header";
import { apiRequest, sessionCookieFor, signedInStaff } from "@/test/auth";
import { testDatabases, withProcessDatabase, withTestEnvironment } from "@/test/db";

import { DELETE as retireRole, PATCH as updateRole } from "./[id]/route";
import { POST as createRole, GET as listRoles } from "./route";

/*
 * Custom roles through the API: created, edited and retired by a member holding roles.manage, built-in roles
 * immutable, members of a role getting its new permissions on their next request (on another instance too,
 * on PostgreSQL), every change on the audit trail.
 */

type Json = Record<string, unknown>;
const read = async <T = Json>(response: Response) => (await response.json()) as T;
const params = (id: string) => ({ params: Promise.resolve({ id }) });
let counter = 0;
const uniqueName = (label: string) => `${label} ${Date.now()}-${(counter += 1)}`;

withTestEnvironment();

describe.each(testDatabases())("custom roles on $name", ({ name, open }) => {
  const handle = withProcessDatabase(open);
  let admin: StaffUserDto;
  let adminCookie: string;

  beforeAll(async () => {
    ({ user: admin, cookie: adminCookie } = await signedInStaff(handle.db, { role: "admin" }));
  });

  async function newRole(permissions: string[], label = "Role"): Promise<RoleDto> {
    const response = await createRole(
      apiRequest("/api/roles", { method: "POST", cookie: adminCookie, body: { name: uniqueName(label), permissions } }),
    );
    expect(response.status).toBe(201);
    return (await read<{ role: RoleDto }>(response)).role;
  }

  async function invite(role: string): Promise<Response> {
    return inviteStaff(
      apiRequest("/api/staff", {
        method: "POST",
        cookie: adminCookie,
        body: { email: `member-${Date.now()}-${(counter += 1)}@test.local`, name: "Member", role },
      }),
    );
  }

  async function lastEvent(action: string, targetId: string) {
    const rows = await handle.db
      .select()
      .from(auditEvents)
      .where(and(eq(auditEvents.action, action), eq(auditEvents.target, targetId)));
    return rows.at(-1);
  }

  it("lists the catalogue with a label and an explanation in English and in pt-BR", async () => {
    const en = await read<{ groups: Array<{ permissions: Array<{ name: string; label: string; description: string }> }> }>(
      await listPermissions(apiRequest("/api/permissions", { cookie: adminCookie, headers: { "accept-language": "en" } })),
    );
    const names = en.groups.flatMap((group) => group.permissions.map((entry) => entry.name));
    expect([...names].sort()).toEqual([...PERMISSIONS].sort());
    expect(
      en.groups.flatMap((group) => group.permissions).every((entry) => entry.label && entry.description && entry.label !== entry.name),
    ).toBe(true);
    const pt = await read<typeof en>(
      await listPermissions(apiRequest("/api/permissions", { cookie: adminCookie, headers: { "accept-language": "pt-BR" } })),
    );
    const media = pt.groups.flatMap((group) => group.permissions).find((entry) => entry.name === "media.read");
    expect(media?.label).toBe("Ver mídia da verificação");
  });

  it("lists the built-in roles with their permissions, and refuses to edit or retire them", async () => {
    const { roles } = await read<{ roles: RoleDto[] }>(await listRoles(apiRequest("/api/roles", { cookie: adminCookie })));
    for (const role of BUILT_IN_ROLES) {
      expect(roles.find((entry) => entry.id === role)).toMatchObject({ builtIn: true, permissions: [...BUILT_IN_PERMISSIONS[role]] });
    }
    const edit = await updateRole(
      apiRequest("/api/roles/viewer", { method: "PATCH", cookie: adminCookie, body: { permissions: PERMISSIONS } }),
      params("viewer"),
    );
    expect(edit.status).toBe(403);
    expect((await retireRole(apiRequest("/api/roles/admin", { method: "DELETE", cookie: adminCookie }), params("admin"))).status).toBe(403);
    const again = await read<{ roles: RoleDto[] }>(await listRoles(apiRequest("/api/roles", { cookie: adminCookie })));
    expect(again.roles.find((entry) => entry.id === "viewer")?.permissions).toEqual([...BUILT_IN_PERMISSIONS.viewer]);
  });

  it("creates a role, refusing a taken name, a built-in name and an unknown permission by field", async () => {
    const role = await newRole(["cases.read", "verifications.read", "cases.read"], "Reader");
    // Catalogue order, each once.
    expect(role).toMatchObject({ builtIn: false, permissions: ["verifications.read", "cases.read"], members: 0 });
    expect(await lastEvent("role.create", role.id)).toMatchObject({ actorId: admin.id, outcome: "success" });
    const post = (body: unknown) => createRole(apiRequest("/api/roles", { method: "POST", cookie: adminCookie, body }));
    const taken = await post({ name: role.name.toUpperCase(), permissions: [] });
    expect(taken.status).toBe(409);
    expect((await read<{ error: { fields: string[] } }>(taken)).error.fields).toEqual(["name"]);
    const builtIn = await post({ name: "Auditor", permissions: [] });
    expect(builtIn.status).toBe(400);
    expect((await read<{ error: { fields: string[] } }>(builtIn)).error.fields).toEqual(["name"]);
    const unknown = await post({ name: uniqueName("Bad"), permissions: ["verifications.read", "everything.all"] });
    expect(unknown.status).toBe(400);
    expect((await read<{ error: { fields: string[]; message: string } }>(unknown)).error).toMatchObject({ fields: ["permissions"] });
  });

  it("gives a member the role's permissions, and a change of the role applies on their next request", async () => {
    const role = await newRole(["verifications.read"], "Narrow");
    const invited = await invite(role.id);
    expect(invited.status).toBe(201);
    const { user } = await read<{ user: StaffUserDto }>(invited);
    expect(user).toMatchObject({ role: role.id, customRoleName: role.name });
    const cookie = await sessionCookieFor(handle.db, user);
    // The one-time password's change is not what is under test here.
    await handle.db.execute(`update staff_users set must_change_password = false where id = '${user.id}'`);
    const askReasons = () => reasons(apiRequest("/api/cases/reasons", { cookie }));
    expect((await askReasons()).status).toBe(403);
    const patched = await updateRole(
      apiRequest(`/api/roles/${role.id}`, {
        method: "PATCH",
        cookie: adminCookie,
        body: { permissions: ["verifications.read", "cases.read"] },
      }),
      params(role.id),
    );
    expect(patched.status).toBe(200);
    expect((await askReasons()).status).toBe(200);
    expect(await lastEvent("role.update", role.id)).toMatchObject({ details: { added: "cases.read" } });
    await updateRole(
      apiRequest(`/api/roles/${role.id}`, { method: "PATCH", cookie: adminCookie, body: { permissions: [] } }),
      params(role.id),
    );
    expect((await askReasons()).status).toBe(403);
  });

  it("refuses to retire a role someone holds, and retires it once nobody does", async () => {
    const role = await newRole(["cases.read"], "Short-lived");
    const { user } = await read<{ user: StaffUserDto }>(await invite(role.id));
    const retire = () => retireRole(apiRequest(`/api/roles/${role.id}`, { method: "DELETE", cookie: adminCookie }), params(role.id));
    const refused = await retire();
    expect(refused.status).toBe(409);
    expect((await read<{ error: { message: string } }>(refused)).error.message).toMatch(/1 staff account/);
    const moved = await changeStaff(
      apiRequest(`/api/staff/${user.id}`, { method: "PATCH", cookie: adminCookie, body: { role: "viewer" } }),
      params(user.id),
    );
    expect(moved.status).toBe(200);
    expect(await lastEvent("staff.role_change", user.id)).toMatchObject({ details: { roleFrom: `custom:${role.name}`, roleTo: "viewer" } });
    expect((await retire()).status).toBe(200);
    expect(await lastEvent("role.retire", role.id)).toMatchObject({ outcome: "success" });
    const { roles } = await read<{ roles: RoleDto[] }>(await listRoles(apiRequest("/api/roles", { cookie: adminCookie })));
    expect(roles.some((entry) => entry.id === role.id)).toBe(false);
    // A retired role can be given to nobody.
    const late = await invite(role.id);
    expect(late.status).toBe(400);
    expect((await read<{ error: { fields: string[] } }>(late)).error.fields).toEqual(["role"]);
  });

  it("refuses the role API to a member without roles.manage, even one who manages staff", async () => {
    const role = await newRole(["staff.manage"], "Staff only");
    const { user } = await read<{ user: StaffUserDto }>(await invite(role.id));
    await handle.db.execute(`update staff_users set must_change_password = false where id = '${user.id}'`);
    const cookie = await sessionCookieFor(handle.db, user);
    expect((await listRoles(apiRequest("/api/roles", { cookie }))).status).toBe(403);
    expect(
      (await createRole(apiRequest("/api/roles", { method: "POST", cookie, body: { name: uniqueName("Mine"), permissions: PERMISSIONS } })))
        .status,
    ).toBe(403);
  });

  if (name === "postgres") {
    it("a change to a role reaches its member's next request on another instance", async () => {
      const other = await createDatabase({ url: handle.url! });
      try {
        const role = await newRole(["verifications.read"], "Remote");
        const { user } = await read<{ user: StaffUserDto }>(await invite(role.id));
        const token = await sessionToken(parseCookieHeader(await sessionCookieFor(handle.db, user)));
        const ids = { sessionId: token!.sid, userId: token!.uid };
        const there = new SessionCache(other);
        await expect.poll(() => there.trusted).toBe(true);
        expect((await there.validate(ids))?.permissions).toEqual(["verifications.read"]);
        // The change is made through this instance; the other hears of it only through the database.
        await updateRole(
          apiRequest(`/api/roles/${role.id}`, {
            method: "PATCH",
            cookie: adminCookie,
            body: { permissions: ["verifications.read", "media.read"] },
          }),
          params(role.id),
        );
        await expect.poll(async () => (await there.validate(ids))?.permissions).toEqual(["verifications.read", "media.read"]);
        // And moving the member to a built-in role, likewise.
        await changeStaff(
          apiRequest(`/api/staff/${user.id}`, { method: "PATCH", cookie: adminCookie, body: { role: "auditor" } }),
          params(user.id),
        );
        await expect.poll(async () => (await there.validate(ids))?.permissions).toEqual([...BUILT_IN_PERMISSIONS.auditor]);
      } finally {
        await other.close();
      }
    });
  }
});
