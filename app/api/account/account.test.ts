import { and, eq } from "drizzle-orm";
import { afterEach, expect, it, vi } from "vitest";

import { DELETE as resetFactors } from "@/app/api/staff/[id]/factors/route";
import { DELETE as endMemberSessions, GET as memberSessions } from "@/app/api/staff/[id]/sessions/route";
import { GET as listStaff } from "@/app/api/staff/route";
import { auditEvents } from "@/lib/audit-trail/server/tables";
import { IDLE_TIMEOUT_MS, readLiveSession } from "@/lib/auth/server/sessions";
import { staffFactors, staffSessions, staffUsers } from "@/lib/auth/server/tables";
import { TOTP_PERIOD_SECONDS, totpCode } from "@/lib/auth/server/totp";
import type { StaffUserDto } from "@/lib/auth/types";
import { apiRequest, createTestStaff, sessionCookieFor, signedInSession } from "@/test/auth";
import { stubConfigEnv } from "@/test/config";
import { describeEachDatabase, TEST_SECRETS, withProcessDatabase, withTestEnvironment } from "@/test/db";

import { DELETE as removeFactor } from "./factors/[id]/route";
import { GET as factors } from "./factors/route";
import { POST as verifyTotp } from "./factors/totp/[id]/verify/route";
import { POST as startTotp } from "./factors/totp/route";
import { DELETE as endSession } from "./sessions/[id]/route";
import { DELETE as endOthers, GET as sessions } from "./sessions/route";
import { POST as stepUp } from "./step-up/route";

const params = (id: string) => ({ params: Promise.resolve({ id }) });
const post = (url: string, cookie: string, body: unknown) => apiRequest(url, { method: "POST", cookie, body });
const period = TOTP_PERIOD_SECONDS * 1000;

describeEachDatabase("account routes on $name", ({ open }) => {
  withTestEnvironment();
  const handle = withProcessDatabase(open);

  afterEach(() => {
    vi.useRealTimers();
    stubConfigEnv({ MFA_REQUIRED: "off" });
  });

  /** Enrols an authenticator app through the routes; the secret and the recovery codes it was given. */
  async function enrolApp(user: StaffUserDto, cookie: string) {
    const started = await startTotp(post("/api/account/factors/totp", cookie, { label: "Phone" }));
    expect(started.status).toBe(201);
    const { id, secret, otpauthUri, qrDataUrl } = (await started.json()) as {
      id: string;
      secret: string;
      otpauthUri: string;
      qrDataUrl: string;
    };
    expect(otpauthUri).toMatch(/^otpauth:\/\/totp\//);
    expect(otpauthUri).toContain(`secret=${secret}`);
    expect(qrDataUrl).toMatch(/^data:image\/png;base64,/);
    const confirmed = await verifyTotp(post(`/api/account/factors/totp/${id}/verify`, cookie, { code: totpCode(secret) }), params(id));
    expect(confirmed.status).toBe(200);
    const body = (await confirmed.json()) as { factor: { id: string; kind: string }; recoveryCodes?: string[] };
    expect(body.factor).toMatchObject({ id, kind: "totp" });
    return { id, secret, recoveryCodes: body.recoveryCodes ?? [] };
  }

  it("enrols an authenticator app with a first code, refusing a wrong one by name, and gives ten recovery codes once", async () => {
    const user = await createTestStaff(handle.db);
    const cookie = await sessionCookieFor(handle.db, user);
    const started = await startTotp(post("/api/account/factors/totp", cookie, { label: "Work phone" }));
    const { id, secret } = (await started.json()) as { id: string; secret: string };
    // Not counted until confirmed.
    expect(((await (await factors(apiRequest("/api/account/factors", { cookie }))).json()) as { factors: unknown[] }).factors).toEqual([]);

    const wrong = await verifyTotp(
      post(`/api/account/factors/totp/${id}/verify`, cookie, { code: "000000" === totpCode(secret) ? "111111" : "000000" }),
      params(id),
    );
    expect(wrong.status).toBe(400);
    expect(((await wrong.json()) as { error: { fields: string[] } }).error.fields).toEqual(["code"]);

    const right = await verifyTotp(post(`/api/account/factors/totp/${id}/verify`, cookie, { code: totpCode(secret) }), params(id));
    const { recoveryCodes } = (await right.json()) as { recoveryCodes: string[] };
    expect(recoveryCodes).toHaveLength(10);
    expect(new Set(recoveryCodes).size).toBe(10);

    // A second factor does not issue new codes.
    const second = await enrolApp(user, cookie);
    expect(second.recoveryCodes).toEqual([]);
    const listed = (await (await factors(apiRequest("/api/account/factors", { cookie }))).json()) as {
      factors: Array<{ label: string }>;
      recoveryCodesLeft: number;
      stepUpMethods: string[];
    };
    expect(listed.factors.map((factor) => factor.label)).toEqual(["Work phone", "Phone"]);
    expect(listed.recoveryCodesLeft).toBe(10);
    expect(listed.stepUpMethods).toEqual(["totp", "recovery"]);
    // The secret is stored sealed, never as typed into the app.
    const stored = JSON.stringify(await handle.db.select().from(staffUsers).where(eq(staffUsers.id, user.id)));
    expect(stored).not.toContain(secret);
  });

  it("asks a member with a factor for it after the password, accepts each code once, and a recovery code once", async () => {
    // The clock held a second into a code's period: "the code the enrolment used" is then the current code whatever
    // the machine's pace (run free, the enrolment and the reuse could fall either side of a period's end, and the
    // "reused" code was the next period's, unspent: a clean-clone run saw it).
    vi.useFakeTimers({ now: Math.floor(Date.now() / period) * period + 1_000, toFake: ["Date"] });
    const user = await createTestStaff(handle.db);
    const { secret, recoveryCodes } = await enrolApp(user, await sessionCookieFor(handle.db, user));
    const cookie = await sessionCookieFor(handle.db, user, { stepUp: false });
    // Awaiting the second factor: nothing else answers.
    expect((await sessions(apiRequest("/api/account/sessions", { cookie }))).status).toBe(401);

    // The code the enrolment used is spent.
    const reused = await stepUp(post("/api/account/step-up", cookie, { code: totpCode(secret) }));
    expect(reused.status).toBe(400);
    expect(((await reused.json()) as { error: { fields: string[] } }).error.fields).toEqual(["code"]);
    const next = totpCode(secret, Date.now() + period);
    expect((await stepUp(post("/api/account/step-up", cookie, { code: next }))).status).toBe(200);
    expect((await sessions(apiRequest("/api/account/sessions", { cookie }))).status).toBe(200);

    const other = await sessionCookieFor(handle.db, user, { stepUp: false });
    expect((await stepUp(post("/api/account/step-up", other, { code: next }))).status).toBe(400);
    expect((await stepUp(post("/api/account/step-up", other, { code: recoveryCodes[0]!.toUpperCase() }))).status).toBe(200);
    const third = await sessionCookieFor(handle.db, user, { stepUp: false });
    expect((await stepUp(post("/api/account/step-up", third, { code: recoveryCodes[0] }))).status).toBe(400);
    const left = (await (await factors(apiRequest("/api/account/factors", { cookie }))).json()) as { recoveryCodesLeft: number };
    expect(left.recoveryCodesLeft).toBe(9);
  });

  it("a rotation of NEXTAUTH_SECRET keeps the authenticator app and recovery codes; the app is sealed again under the new key", async () => {
    const user = await createTestStaff(handle.db);
    const { id, secret, recoveryCodes } = await enrolApp(user, await sessionCookieFor(handle.db, user));
    const storedSecret = async () =>
      (await handle.db.select({ sealed: staffFactors.totpSecret }).from(staffFactors).where(eq(staffFactors.id, id)))[0]!.sealed!;
    expect(await storedSecret()).toMatch(/^v2\.1\./);
    const newer = "rotated-nextauth-secret-0123456789abcdef";
    try {
      stubConfigEnv({ NEXTAUTH_SECRET: `k2:${newer},1:${TEST_SECRETS.NEXTAUTH_SECRET}` });
      const cookie = await sessionCookieFor(handle.db, user, { stepUp: false });
      expect((await stepUp(post("/api/account/step-up", cookie, { code: totpCode(secret, Date.now() + period) }))).status).toBe(200);
      // Opened under the old key, sealed again under the new one when used.
      expect(await storedSecret()).toMatch(/^v2\.k2\./);
      const other = await sessionCookieFor(handle.db, user, { stepUp: false });
      expect((await stepUp(post("/api/account/step-up", other, { code: recoveryCodes[0] }))).status).toBe(200);

      // The old key retired: the app still works (sealed under the new key now); recovery codes hashed under the
      // retired key no longer match (the status command counts them before a key is retired).
      stubConfigEnv({ NEXTAUTH_SECRET: `k2:${newer}` });
      vi.useFakeTimers({ now: Date.now() + 3 * period, toFake: ["Date"] });
      const third = await sessionCookieFor(handle.db, user, { stepUp: false });
      expect((await stepUp(post("/api/account/step-up", third, { code: recoveryCodes[1] }))).status).toBe(400);
      expect((await stepUp(post("/api/account/step-up", third, { code: totpCode(secret) }))).status).toBe(200);
    } finally {
      stubConfigEnv({ NEXTAUTH_SECRET: TEST_SECRETS.NEXTAUTH_SECRET });
    }
  });

  it("limits second-factor guesses per member, counted before each check", async () => {
    const user = await createTestStaff(handle.db);
    const { secret } = await enrolApp(user, await sessionCookieFor(handle.db, user));
    const cookie = await sessionCookieFor(handle.db, user, { stepUp: false });
    const wrong = (Number(totpCode(secret, Date.now() + 5 * period)) + 1) % 1_000_000;
    const statuses = await Promise.all(
      Array.from({ length: 12 }, () => stepUp(post("/api/account/step-up", cookie, { code: String(wrong).padStart(6, "0") }))).map(
        async (response) => (await response).status,
      ),
    );
    expect(statuses.filter((status) => status === 400).length).toBeLessThanOrEqual(5);
    expect(statuses.filter((status) => status === 429).length).toBeGreaterThanOrEqual(7);
  });

  it("asks for a step-up before a sensitive action; a member without a factor confirms with the password", async () => {
    const admin = await createTestStaff(handle.db, { role: "admin", password: "admin password 1" });
    const member = await createTestStaff(handle.db);
    const cookie = await sessionCookieFor(handle.db, admin, { stepUp: false });
    const refused = await resetFactors(apiRequest(`/api/staff/${member.id}/factors`, { method: "DELETE", cookie }), params(member.id));
    expect(refused.status).toBe(401);
    expect(((await refused.json()) as { error: { code: string } }).error.code).toBe("step_up_required");

    const methods = (await (await factors(apiRequest("/api/account/factors", { cookie }))).json()) as { stepUpMethods: string[] };
    expect(methods.stepUpMethods).toEqual(["password"]);
    const badPassword = await stepUp(post("/api/account/step-up", cookie, { password: "not it" }));
    expect(badPassword.status).toBe(400);
    expect(((await badPassword.json()) as { error: { fields: string[] } }).error.fields).toEqual(["password"]);
    expect((await stepUp(post("/api/account/step-up", cookie, { password: "admin password 1" }))).status).toBe(200);
    expect(
      (await resetFactors(apiRequest(`/api/staff/${member.id}/factors`, { method: "DELETE", cookie }), params(member.id))).status,
    ).toBe(200);

    // Fresh for STEP_UP_SECONDS (300 by default), then asked again.
    vi.useFakeTimers({ now: Date.now() + 301_000, toFake: ["Date"] });
    expect(
      (await resetFactors(apiRequest(`/api/staff/${member.id}/factors`, { method: "DELETE", cookie }), params(member.id))).status,
    ).toBe(401);
  });

  it("a member with a factor cannot step up with the password; removing a factor needs a fresh step-up", async () => {
    const user = await createTestStaff(handle.db, { password: "member password 1" });
    const { id } = await enrolApp(user, await sessionCookieFor(handle.db, user));
    const stale = await sessionCookieFor(handle.db, user);
    await handle.db
      .update(staffSessions)
      .set({ secondFactorAt: new Date(Date.now() - 600_000) })
      .where(eq(staffSessions.userId, user.id));
    const refused = await removeFactor(apiRequest(`/api/account/factors/${id}`, { method: "DELETE", cookie: stale }), params(id));
    expect(refused.status).toBe(401);
    const withPassword = await stepUp(post("/api/account/step-up", stale, { password: "member password 1" }));
    expect(withPassword.status).toBe(400);
    expect(((await withPassword.json()) as { error: { fields: string[] } }).error.fields).toEqual(["code"]);
    expect((await removeFactor(apiRequest(`/api/account/factors/${id}`, { method: "DELETE", cookie: stale }), params(id))).status).toBe(
      401,
    );
  });

  it("requires privileged members to enrol before anything else, under MFA_REQUIRED=privileged", async () => {
    stubConfigEnv({ MFA_REQUIRED: "privileged" });
    const admin = await createTestStaff(handle.db, { role: "admin" });
    const viewer = await createTestStaff(handle.db, { role: "viewer" });
    const adminCookie = await sessionCookieFor(handle.db, admin, { stepUp: false });
    const denied = await listStaff(apiRequest("/api/staff", { cookie: adminCookie }));
    expect(denied.status).toBe(403);
    expect(((await denied.json()) as { error: { message: string } }).error.message).toMatch(/second factor/);
    const listed = (await (await factors(apiRequest("/api/account/factors", { cookie: adminCookie }))).json()) as { required: boolean };
    expect(listed.required).toBe(true);
    const { secret } = await enrolApp(admin, adminCookie);
    expect((await listStaff(apiRequest("/api/staff", { cookie: adminCookie }))).status).toBe(200);
    // A viewer sees no biometrics and no unmasked data: not asked.
    const viewerCookie = await sessionCookieFor(handle.db, viewer, { stepUp: false });
    expect((await sessions(apiRequest("/api/account/sessions", { cookie: viewerCookie }))).status).toBe(200);
    // The last factor of a member the policy requires cannot be removed. (Enrolling was no step-up: the removal
    // asks for one first, given with the new app's next code.)
    const [only] = (
      (await (await factors(apiRequest("/api/account/factors", { cookie: adminCookie }))).json()) as { factors: Array<{ id: string }> }
    ).factors;
    const unconfirmed = await removeFactor(
      apiRequest(`/api/account/factors/${only!.id}`, { method: "DELETE", cookie: adminCookie }),
      params(only!.id),
    );
    expect(unconfirmed.status).toBe(401);
    expect((await stepUp(post("/api/account/step-up", adminCookie, { code: totpCode(secret, Date.now() + period) }))).status).toBe(200);
    expect(
      (await removeFactor(apiRequest(`/api/account/factors/${only!.id}`, { method: "DELETE", cookie: adminCookie }), params(only!.id)))
        .status,
    ).toBe(409);
  });

  it("lists a member's sessions and ends one, or all the others, on the next request", async () => {
    const user = await createTestStaff(handle.db);
    const here = await sessionCookieFor(handle.db, user, {
      userAgent: "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/140.0.0.0 Safari/537.36",
    });
    const there = await sessionCookieFor(handle.db, user, {
      userAgent:
        "Mozilla/5.0 (iPhone; CPU iPhone OS 18_0 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.0 Mobile/15E148 Safari/604.1",
    });
    const third = await sessionCookieFor(handle.db, user);
    const list = (await (await sessions(apiRequest("/api/account/sessions", { cookie: here }))).json()) as {
      sessions: Array<{ id: string; current: boolean; browser: string | null; system: string | null; ip: string }>;
    };
    expect(list.sessions).toHaveLength(3);
    expect(list.sessions.filter((session) => session.current)).toHaveLength(1);
    expect(list.sessions.find((session) => session.current)).toMatchObject({ browser: "Chrome 140", system: "Windows 10" });
    expect(list.sessions.map((session) => session.browser)).toContain("Safari 18");
    // The secret session id never leaves the server.
    const [row] = await handle.db.select({ id: staffSessions.id }).from(staffSessions).where(eq(staffSessions.userId, user.id)).limit(1);
    expect(JSON.stringify(list)).not.toContain(row!.id);

    const iphone = list.sessions.find((session) => session.browser === "Safari 18")!;
    expect(
      (await endSession(apiRequest(`/api/account/sessions/${iphone.id}`, { method: "DELETE", cookie: here }), params(iphone.id))).status,
    ).toBe(200);
    expect((await sessions(apiRequest("/api/account/sessions", { cookie: there }))).status).toBe(401);
    expect(
      (await endSession(apiRequest(`/api/account/sessions/${iphone.id}`, { method: "DELETE", cookie: here }), params(iphone.id))).status,
    ).toBe(404);

    expect(await (await endOthers(apiRequest("/api/account/sessions", { method: "DELETE", cookie: here }))).json()).toEqual({ ended: 1 });
    expect((await sessions(apiRequest("/api/account/sessions", { cookie: third }))).status).toBe(401);
    expect((await sessions(apiRequest("/api/account/sessions", { cookie: here }))).status).toBe(200);

    // An admin sees and ends anyone's.
    const admin = await createTestStaff(handle.db, { role: "admin" });
    const adminCookie = await sessionCookieFor(handle.db, admin);
    const theirs = (await (
      await memberSessions(apiRequest(`/api/staff/${user.id}/sessions`, { cookie: adminCookie }), params(user.id))
    ).json()) as {
      sessions: unknown[];
    };
    expect(theirs.sessions).toHaveLength(1);
    expect(
      await (
        await endMemberSessions(apiRequest(`/api/staff/${user.id}/sessions`, { method: "DELETE", cookie: adminCookie }), params(user.id))
      ).json(),
    ).toEqual({
      ended: 1,
    });
    expect((await sessions(apiRequest("/api/account/sessions", { cookie: here }))).status).toBe(401);
  });

  it("lists the sessions once per device with their count, and ending a device ends every session on it", async () => {
    const user = await createTestStaff(handle.db);
    const chrome = "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/140.0.0.0 Safari/537.36";
    const safari =
      "Mozilla/5.0 (iPhone; CPU iPhone OS 18_0 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.0 Mobile/15E148 Safari/604.1";
    // Three sign-ins from one browser (each a session of its own), one from a phone.
    const mornings: string[] = [];
    for (let day = 0; day < 3; day += 1) mornings.push(await sessionCookieFor(handle.db, user, { userAgent: chrome }));
    const phone = await sessionCookieFor(handle.db, user, { userAgent: safari });
    type Listed = { sessions: Array<{ id: string; current: boolean; browser: string | null; count: number }> };
    const list = (await (await sessions(apiRequest("/api/account/sessions", { cookie: phone }))).json()) as Listed;
    expect(list.sessions.map(({ browser, count, current }) => ({ browser, count, current })).sort((a, b) => b.count - a.count)).toEqual([
      { browser: "Chrome 140", count: 3, current: false },
      { browser: "Safari 18", count: 1, current: true },
    ]);

    const desktop = list.sessions.find((session) => session.browser === "Chrome 140")!;
    expect(
      (await endSession(apiRequest(`/api/account/sessions/${desktop.id}`, { method: "DELETE", cookie: phone }), params(desktop.id))).status,
    ).toBe(200);
    for (const cookie of mornings) expect((await sessions(apiRequest("/api/account/sessions", { cookie }))).status).toBe(401);
    const after = (await (await sessions(apiRequest("/api/account/sessions", { cookie: phone }))).json()) as Listed;
    expect(after.sessions).toMatchObject([{ browser: "Safari 18", count: 1, current: true }]);
    const [event] = await handle.db
      .select({ details: auditEvents.details })
      .from(auditEvents)
      .where(and(eq(auditEvents.action, "auth.session_end"), eq(auditEvents.target, user.id)));
    expect(event?.details).toMatchObject({ ended: 3 });

    // An admin sees the member's sessions the same way.
    const admin = await createTestStaff(handle.db, { role: "admin" });
    for (let day = 0; day < 2; day += 1) await sessionCookieFor(handle.db, user, { userAgent: safari });
    const theirs = (await (
      await memberSessions(
        apiRequest(`/api/staff/${user.id}/sessions`, { cookie: await sessionCookieFor(handle.db, admin) }),
        params(user.id),
      )
    ).json()) as { sessions: Array<{ browser: string; count: number }> };
    expect(theirs.sessions).toMatchObject([{ browser: "Safari 18", count: 3 }]);
  });

  it("background polling does not keep a session alive; the member's actions do", async () => {
    const { ids, start } = await signedInSession(handle.db);
    // Polling every minute for 35 minutes, nobody at the screen.
    for (let minute = 1; minute <= 29; minute += 1) {
      expect(await readLiveSession(handle.db, ids, new Date(start + minute * 60_000), { active: false })).not.toBeNull();
    }
    expect(await readLiveSession(handle.db, ids, new Date(start + IDLE_TIMEOUT_MS + 60_000), { active: false })).toBeNull();

    // The same with a click at 20 minutes: still signed in at 35 minutes.
    const other = await createTestStaff(handle.db);
    await sessionCookieFor(handle.db, other);
    const [clicked] = await handle.db.select().from(staffSessions).where(eq(staffSessions.userId, other.id));
    const clickedIds = { sessionId: clicked!.id, userId: other.id };
    const began = clicked!.createdAt.getTime();
    expect(await readLiveSession(handle.db, clickedIds, new Date(began + 20 * 60_000))).not.toBeNull();
    expect(await readLiveSession(handle.db, clickedIds, new Date(began + 35 * 60_000), { active: false })).not.toBeNull();
  });

  it("puts every factor and session change on the trail without any secret, code or recovery code", async () => {
    const user = await createTestStaff(handle.db, { role: "admin" });
    const cookie = await sessionCookieFor(handle.db, user);
    const { id, secret, recoveryCodes } = await enrolApp(user, cookie);
    const pending = await sessionCookieFor(handle.db, user, { stepUp: false });
    const code = totpCode(secret, Date.now() + period);
    await stepUp(post("/api/account/step-up", pending, { code }));
    await removeFactor(apiRequest(`/api/account/factors/${id}`, { method: "DELETE", cookie }), params(id));
    await resetFactors(apiRequest(`/api/staff/${user.id}/factors`, { method: "DELETE", cookie }), params(user.id));
    const events = await handle.db.select().from(auditEvents).where(eq(auditEvents.target, user.id));
    const actions = new Set(events.map((event) => event.action));
    for (const action of ["auth.factor_enrol", "auth.factor_remove", "staff.factors_reset"]) expect(actions).toContain(action);
    const mine = await handle.db.select().from(auditEvents).where(eq(auditEvents.actorId, user.id));
    expect(mine.map((event) => event.action)).toContain("auth.second_factor");
    const text = JSON.stringify([...events, ...mine]);
    for (const secretThing of [secret, code, ...recoveryCodes]) expect(text).not.toContain(secretThing);
  });
});
