import { and, eq, sql } from "drizzle-orm";
import { beforeAll, expect, it } from "vitest";

import { PATCH as changeStaff } from "@/app/api/staff/[id]/route";
import { POST as inviteStaff } from "@/app/api/staff/route";
import { auditEvents } from "@/lib/audit-trail/server/tables";
import { staffUsers } from "@/lib/auth/server/tables";
import type { StaffUserDto } from "@/lib/auth/types";
import type { ErasureDto } from "@/lib/privacy/erasure";
import { apiRequest, createTestStaff, sessionCookieFor, signedInStaff } from "@/test/auth";
import { randomCpf } from "@/test/cpf";
import { describeEachDatabase, withProcessDatabase, withTestEnvironment } from "@/test/db";

import { POST as confirm } from "./[id]/confirm/route";
import { POST as ask } from "./route";

/*
 * Four eyes between people who predate the request: an erasure is not confirmed by an account its requester
 * created, re-enabled or gave its role after the request, or within FOUR_EYES_INDEPENDENCE_HOURS (24 here) before it.
 */

type Json = { erasure?: ErasureDto; user?: StaffUserDto; error?: { code: string; message: string } };
const read = async (response: Response) => (await response.json()) as Json;
const params = (id: string) => ({ params: Promise.resolve({ id }) });

describeEachDatabase("erasure four eyes on $name", ({ open }) => {
  withTestEnvironment();
  const handle = withProcessDatabase(open);
  let requester: StaffUserDto;
  let requesterCookie: string;

  beforeAll(async () => {
    ({ user: requester, cookie: requesterCookie } = await signedInStaff(handle.db, { role: "admin" }));
  });

  async function request(): Promise<string> {
    const response = await ask(
      apiRequest("/api/privacy/erasures", {
        method: "POST",
        cookie: requesterCookie,
        body: { cpf: randomCpf(), reason: "Asked by email" },
      }),
    );
    expect(response.status).toBe(201);
    return (await read(response)).erasure!.id;
  }
  const confirmAs = async (user: StaffUserDto, id: string) =>
    confirm(
      apiRequest(`/api/privacy/erasures/${id}/confirm`, { method: "POST", cookie: await sessionCookieFor(handle.db, user) }),
      params(id),
    );
  async function invitedAdmin(): Promise<StaffUserDto> {
    const email = `second-${Date.now()}-${Math.random().toString(36).slice(2, 8)}@test.local`;
    const response = await inviteStaff(
      apiRequest("/api/staff", { method: "POST", cookie: requesterCookie, body: { email, name: "Second", role: "admin" } }),
    );
    expect(response.status).toBe(201);
    const { user } = await read(response);
    // Signed in, its one-time password replaced (not what is under test here).
    await handle.db.update(staffUsers).set({ mustChangePassword: false }).where(eq(staffUsers.id, user!.id));
    return user!;
  }
  const patch = (id: string, body: unknown) =>
    changeStaff(apiRequest(`/api/staff/${id}`, { method: "PATCH", cookie: requesterCookie, body }), params(id));
  async function expectRefused(response: Response, id: string) {
    expect(response.status).toBe(409);
    expect((await read(response)).error!.code).toBe("confirmer_not_independent");
    const [event] = await handle.db
      .select()
      .from(auditEvents)
      .where(and(eq(auditEvents.action, "privacy.erasure.confirm"), eq(auditEvents.target, id)))
      .orderBy(sql`${auditEvents.id} desc`)
      .limit(1);
    expect(event).toMatchObject({ outcome: "failure", details: { reason: "confirmer_not_independent" } });
  }

  it("an admin who asks, then invites a second admin, cannot have it confirm (409 confirmer_not_independent)", async () => {
    const id = await request();
    const second = await invitedAdmin();
    await expectRefused(await confirmAs(second, id), id);
    // An admin who predates the request, made by nobody here, confirms it.
    expect((await confirmAs(await createTestStaff(handle.db, { role: "admin" }), id)).status).toBe(200);
  });

  it("nor one invited within the window before the request; one invited longer ago may confirm", async () => {
    const recent = await invitedAdmin();
    const earlier = await invitedAdmin();
    const dayAndAHourAgo = sql`now() - interval '25 hours'`;
    await handle.db.update(staffUsers).set({ createdAt: dayAndAHourAgo, roleGivenAt: dayAndAHourAgo }).where(eq(staffUsers.id, earlier.id));
    const id = await request();
    await expectRefused(await confirmAs(recent, id), id);
    expect((await confirmAs(earlier, id)).status).toBe(200);
  });

  it("nor one the requester re-enables or gives its role after the request", async () => {
    const dormant = await createTestStaff(handle.db, { role: "admin" });
    const analyst = await createTestStaff(handle.db, { role: "analyst" });
    expect((await patch(dormant.id, { disabled: true })).status).toBe(200);
    const id = await request();
    expect((await patch(dormant.id, { disabled: false })).status).toBe(200);
    expect((await patch(analyst.id, { role: "admin" })).status).toBe(200);
    await expectRefused(await confirmAs(dormant, id), id);
    await expectRefused(await confirmAs(analyst, id), id);
    const [row] = await handle.db
      .select({ enabledBy: staffUsers.enabledBy, roleGivenBy: staffUsers.roleGivenBy })
      .from(staffUsers)
      .where(eq(staffUsers.id, analyst.id));
    expect(row).toEqual({ enabledBy: null, roleGivenBy: requester.id });
  });
});
