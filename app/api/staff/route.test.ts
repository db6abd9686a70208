import { and, eq } from "drizzle-orm";
import { beforeAll, expect, it } from "vitest";

import { POST as changePassword } from "@/app/api/account/password/route";
import { auditEvents } from "@/lib/audit-trail/server/tables";
import { PERMISSIONS } from "@/lib/auth/permissions";
import { attemptPasswordSignIn } from "@/lib/auth/server/sign-in";
import { staffUsers } from "@/lib/auth/server/tables";
import type { StaffUserDto } from "@/lib/auth/types";
import { createRole } from "@/lib/roles/server/roles";
import { apiRequest, createTestStaff, sessionCookieFor, signedInStaff } from "@/test/auth";
import { describeEachDatabase, withProcessDatabase, withTestEnvironment } from "@/test/db";

import { PATCH } from "./[id]/route";
import { POST as UNLOCK } from "./[id]/unlock/route";
import { GET, POST } from "./route";

const params = (id: string) => ({ params: Promise.resolve({ id }) });

describeEachDatabase("staff routes on $name", ({ open }) => {
  withTestEnvironment();
  const handle = withProcessDatabase(open);
  let admin: StaffUserDto;
  let adminCookie: string;

  beforeAll(async () => {
    ({ user: admin, cookie: adminCookie } = await signedInStaff(handle.db, { role: "admin" }));
  });

  const invite = (body: unknown) => POST(apiRequest("/api/staff", { method: "POST", cookie: adminCookie, body }));

  it("invites with a one-time password returned once, which must then be replaced", async () => {
    const response = await invite({ email: " New.Person@Example.com ", name: "New Person", role: "analyst" });
    expect(response.status).toBe(201);
    expect(response.headers.get("cache-control")).toBe("no-store");
    const { user, oneTimePassword } = (await response.json()) as { user: StaffUserDto; oneTimePassword: string };
    expect(user).toMatchObject({ email: "new.person@example.com", role: "analyst", mustChangePassword: true });

    const list = await GET(apiRequest("/api/staff", { cookie: adminCookie }));
    const text = await list.text();
    expect(text).toContain("new.person@example.com");
    expect(text).not.toContain(oneTimePassword);
    expect(text).not.toContain("scrypt");

    const [event] = await handle.db
      .select()
      .from(auditEvents)
      .where(and(eq(auditEvents.action, "staff.invite"), eq(auditEvents.target, user.id)));
    expect(event).toMatchObject({ actorId: admin.id, outcome: "success", details: { role: "analyst", via: "dashboard" } });
    expect(JSON.stringify(event)).not.toContain(oneTimePassword);

    // The one-time password signs in, then everything but the password change is refused.
    const signIn = await attemptPasswordSignIn(handle.db, {
      email: user.email,
      password: oneTimePassword,
      address: "192.0.2.1",
      allowDemoAccounts: true,
    });
    expect(signIn.status).toBe("ok");
    const invitedCookie = await sessionCookieFor(handle.db, user);
    const refused = await changePassword(
      apiRequest("/api/account/password", {
        method: "POST",
        cookie: invitedCookie,
        body: { currentPassword: "wrong one", newPassword: "a brand new password" },
      }),
    );
    expect(refused.status).toBe(400);
    const changed = await changePassword(
      apiRequest("/api/account/password", {
        method: "POST",
        cookie: invitedCookie,
        body: { currentPassword: oneTimePassword, newPassword: "a brand new password" },
      }),
    );
    expect(changed.status).toBe(204);
    const [row] = await handle.db
      .select({ mustChangePassword: staffUsers.mustChangePassword })
      .from(staffUsers)
      .where(eq(staffUsers.id, user.id));
    expect(row?.mustChangePassword).toBe(false);
  });

  it("answers 409 for an email already taken and 400 naming bad fields", async () => {
    const again = await invite({ email: "NEW.PERSON@example.com", name: "Dup", role: "admin" });
    expect(again.status).toBe(409);
    const bad = await invite({ email: "nope", name: "", role: "root" });
    expect(bad.status).toBe(400);
    expect(((await bad.json()) as { error: { fields: string[] } }).error.fields.sort()).toEqual(["email", "name", "role"]);
  });

  it("changes role, disables (ending the sessions) and re-enables, each recorded", async () => {
    const analyst = await createTestStaff(handle.db, { role: "analyst" });
    const analystCookie = await sessionCookieFor(handle.db, analyst);
    const promote = await PATCH(
      apiRequest(`/api/staff/${analyst.id}`, { method: "PATCH", cookie: adminCookie, body: { role: "admin" } }),
      params(analyst.id),
    );
    expect(((await promote.json()) as { user: StaffUserDto }).user.role).toBe("admin");

    const disable = await PATCH(
      apiRequest(`/api/staff/${analyst.id}`, { method: "PATCH", cookie: adminCookie, body: { disabled: true } }),
      params(analyst.id),
    );
    expect(disable.status).toBe(200);
    expect((await GET(apiRequest("/api/staff", { cookie: analystCookie }))).status).toBe(401);

    await PATCH(
      apiRequest(`/api/staff/${analyst.id}`, { method: "PATCH", cookie: adminCookie, body: { disabled: false } }),
      params(analyst.id),
    );
    const actions = (
      await handle.db.select({ action: auditEvents.action }).from(auditEvents).where(eq(auditEvents.target, analyst.id))
    ).map((row) => row.action);
    expect(actions).toEqual(expect.arrayContaining(["staff.role_change", "staff.disable", "staff.enable"]));
  });

  // The staff page's role picker offers every role: a custom one goes through the same PATCH, behind a fresh second
  // factor, and the trail names it by its name (a role's id is a UUID, which the trail keeps out of details).
  it("gives an existing member a custom role after a step-up, recorded with the role's name", async () => {
    const role = await createRole(
      handle.db,
      { actor: { id: admin.id, email: admin.email, role: "admin", permissions: PERMISSIONS }, ip: null },
      { name: `Night shift ${Date.now()}`, permissions: ["verifications.read", "cases.read", "cases.work"] },
    );
    const member = await createTestStaff(handle.db, { role: "viewer" });
    const change = (cookie: string) =>
      PATCH(apiRequest(`/api/staff/${member.id}`, { method: "PATCH", cookie, body: { role: role.id } }), params(member.id));

    const noStepUp = await sessionCookieFor(handle.db, admin, { stepUp: false });
    const refused = await change(noStepUp);
    expect(refused.status).toBe(401);
    expect(((await refused.json()) as { error: { code: string } }).error.code).toBe("step_up_required");
    const [unchanged] = await handle.db.select({ role: staffUsers.role }).from(staffUsers).where(eq(staffUsers.id, member.id));
    expect(unchanged?.role).toBe("viewer");

    const given = await change(adminCookie);
    expect(given.status).toBe(200);
    expect(((await given.json()) as { user: StaffUserDto }).user).toMatchObject({ role: role.id, customRoleName: role.name });
    const [event] = await handle.db
      .select({ details: auditEvents.details, actor: auditEvents.actorId })
      .from(auditEvents)
      .where(and(eq(auditEvents.target, member.id), eq(auditEvents.action, "staff.role_change")));
    expect(event).toMatchObject({
      actor: admin.id,
      details: expect.objectContaining({ roleFrom: "viewer", roleTo: `custom:${role.name}` }),
    });

    // And back to a built-in one the picker also offers.
    const back = await PATCH(
      apiRequest(`/api/staff/${member.id}`, { method: "PATCH", cookie: adminCookie, body: { role: "reviewer" } }),
      params(member.id),
    );
    expect(((await back.json()) as { user: StaffUserDto }).user).toMatchObject({ role: "reviewer", customRoleName: null });
  });

  // The last active admin's own demotion is refused before it could be: nobody changes their own role or access
  // (403 own_access; LastAdminError, 409, is the store's guard: lib/db/db.test.ts).
  it("refuses the last active admin's demotion or disabling of themselves with 403 own_access", async () => {
    const admins = await handle.db.select({ id: staffUsers.id }).from(staffUsers).where(eq(staffUsers.role, "admin"));
    for (const { id } of admins)
      if (id !== admin.id) await handle.db.update(staffUsers).set({ role: "analyst" }).where(eq(staffUsers.id, id));
    for (const change of [{ role: "analyst" }, { disabled: true }]) {
      const response = await PATCH(
        apiRequest(`/api/staff/${admin.id}`, { method: "PATCH", cookie: adminCookie, body: change }),
        params(admin.id),
      );
      expect(response.status).toBe(403);
      expect(((await response.json()) as { error: { code: string } }).error.code).toBe("own_access");
    }
  });

  it("answers 404 for an unknown id and 400 for a malformed one or an empty change", async () => {
    const unknown = crypto.randomUUID();
    expect(
      (await PATCH(apiRequest(`/api/staff/${unknown}`, { method: "PATCH", cookie: adminCookie, body: { role: "admin" } }), params(unknown)))
        .status,
    ).toBe(404);
    expect(
      (await PATCH(apiRequest("/api/staff/x", { method: "PATCH", cookie: adminCookie, body: { role: "admin" } }), params("x"))).status,
    ).toBe(400);
    expect(
      (await PATCH(apiRequest(`/api/staff/${admin.id}`, { method: "PATCH", cookie: adminCookie, body: {} }), params(admin.id))).status,
    ).toBe(400);
  });

  it("lists each account's sign-in state, and the unlock route lifts it, on the trail; 404 for an unknown id", async () => {
    const held = await createTestStaff(handle.db, { email: `held-${Date.now()}@example.com`, password: "the right password" });
    for (let attempt = 0; attempt < 5; attempt += 1) {
      await attemptPasswordSignIn(handle.db, { email: held.email, password: "guess", address: "198.51.100.7", allowDemoAccounts: false });
    }
    const stateOf = async () => {
      const list = (await (await GET(apiRequest("/api/staff", { cookie: adminCookie }))).json()) as {
        staff: Array<{ id: string; signIn: { lockedUntil: string | null; lockedAddresses: number; recentFailures: number } }>;
      };
      return list.staff.find((user) => user.id === held.id)?.signIn;
    };
    expect(await stateOf()).toMatchObject({ lockedAddresses: 1, recentFailures: 5, lockedUntil: expect.any(String) });

    const response = await UNLOCK(
      apiRequest(`/api/staff/${held.id}/unlock`, { method: "POST", cookie: adminCookie, body: {} }),
      params(held.id),
    );
    expect(response.status).toBe(200);
    expect(await stateOf()).toEqual({ lockedUntil: null, lockedAddresses: 0, recentFailures: 0, accountLocked: false });
    const [event] = await handle.db
      .select()
      .from(auditEvents)
      .where(and(eq(auditEvents.action, "staff.sign_in_unlock"), eq(auditEvents.target, held.id)));
    expect(event).toMatchObject({ actorId: admin.id, outcome: "success", details: { lockedAddresses: 1, recentFailures: 5 } });

    const unknown = crypto.randomUUID();
    const missing = await UNLOCK(
      apiRequest(`/api/staff/${unknown}/unlock`, { method: "POST", cookie: adminCookie, body: {} }),
      params(unknown),
    );
    expect(missing.status).toBe(404);
  });
});
