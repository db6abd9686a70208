import { and, eq } from "drizzle-orm";
import { afterEach, expect, it } from "vitest";

import { DELETE as resetFactors } from "@/app/api/staff/[id]/factors/route";
import { startTotpEnrolment } from "@/lib/account/server/factors";
import { SIGN_IN_GRACE_MS } from "@/lib/auth/server/require-role";
import { updateStaff } from "@/lib/auth/server/staff-store";
import { staffSessions } from "@/lib/auth/server/tables";
import { TOTP_PERIOD_SECONDS, totpCode } from "@/lib/auth/server/totp";
import type { StaffUserDto } from "@/lib/auth/types";
import { notificationOutbox, notifications } from "@/lib/notifications/server/tables";
import { apiRequest, createTestStaff, sessionCookieFor } from "@/test/auth";
import { stubConfigEnv } from "@/test/config";
import { describeEachDatabase, withProcessDatabase, withTestEnvironment } from "@/test/db";

import { DELETE as removeFactor } from "./factors/[id]/route";
import { POST as passkeyOptions } from "./factors/passkeys/options/route";
import { POST as verifyTotp } from "./factors/totp/[id]/verify/route";
import { POST as startTotp } from "./factors/totp/route";
import { POST as stepUp } from "./step-up/route";

/*
 * A stolen session cannot change the member's factors (docs/security.md, second review, finding 2): adding (start
 * and confirm) or removing a factor asks for a fresh step-up whenever the member has a factor or a password, and
 * enrolling never counts as one. The forced first enrolment right after the sign-in still works; a single sign-on
 * only member adds no passkey unless SSO_ONLY_PASSKEYS says so; every change is told to the member.
 */

const params = (id: string) => ({ params: Promise.resolve({ id }) });
const post = (url: string, cookie: string, body?: unknown) => apiRequest(url, { method: "POST", cookie, body });
const period = TOTP_PERIOD_SECONDS * 1000;
const errorCode = async (response: Response) => ((await response.json()) as { error: { code: string } }).error.code;

describeEachDatabase("factor changes on $name", ({ open }) => {
  withTestEnvironment();
  const handle = withProcessDatabase(open);

  afterEach(() => stubConfigEnv({ MFA_REQUIRED: "off", SSO_ONLY_PASSKEYS: "off", SMTP_URL: "", CHAT_WEBHOOK_URL: "" }));

  /** The session's step-up, as long ago as given (null: none). */
  async function stepUpAgo(cookie: string, user: StaffUserDto, ms: number | null) {
    const at = ms === null ? null : new Date(Date.now() - ms);
    await handle.db.update(staffSessions).set({ secondFactorAt: at }).where(eq(staffSessions.userId, user.id));
    return at;
  }

  async function enrolApp(cookie: string) {
    const started = await startTotp(post("/api/account/factors/totp", cookie, { label: "Phone" }));
    expect(started.status).toBe(201);
    const { id, secret } = (await started.json()) as { id: string; secret: string };
    const confirmed = await verifyTotp(post(`/api/account/factors/totp/${id}/verify`, cookie, { code: totpCode(secret) }), params(id));
    expect(confirmed.status).toBe(200);
    return { id, secret };
  }

  it("a session without a fresh step-up neither starts, confirms nor removes a factor, with a password or a factor to confirm with", async () => {
    const user = await createTestStaff(handle.db, { password: "member password 1" });
    const stolen = await sessionCookieFor(handle.db, user, { stepUp: false });
    // A password and no factor: the password is asked first.
    const refused = await startTotp(post("/api/account/factors/totp", stolen, { label: "Attacker" }));
    expect(refused.status).toBe(401);
    expect(await errorCode(refused)).toBe("step_up_required");
    expect((await passkeyOptions(post("/api/account/factors/passkeys/options", stolen))).status).toBe(401);

    // With a factor: an enrolment started elsewhere cannot be confirmed, nor the factor removed.
    const { id } = await enrolApp(await sessionCookieFor(handle.db, user));
    await stepUpAgo(stolen, user, 600_000);
    const pending = await startTotpEnrolment(handle.db, user, "Attacker");
    const confirm = await verifyTotp(
      post(`/api/account/factors/totp/${pending.id}/verify`, stolen, { code: totpCode(pending.secret) }),
      params(pending.id),
    );
    expect(confirm.status).toBe(401);
    expect((await removeFactor(apiRequest(`/api/account/factors/${id}`, { method: "DELETE", cookie: stolen }), params(id))).status).toBe(
      401,
    );
  });

  it("enrolling is no step-up: the session's step-up time stays as it was, and a sensitive action still asks", async () => {
    const admin = await createTestStaff(handle.db, { role: "admin", password: "admin password 1" });
    const other = await createTestStaff(handle.db);
    const cookie = await sessionCookieFor(handle.db, admin);
    const before = await stepUpAgo(cookie, admin, 200_000);
    await enrolApp(cookie);
    const [row] = await handle.db
      .select({ at: staffSessions.secondFactorAt })
      .from(staffSessions)
      .where(eq(staffSessions.userId, admin.id));
    expect(row?.at?.getTime()).toBe(before!.getTime());
    await stepUpAgo(cookie, admin, 600_000);
    const reset = await resetFactors(apiRequest(`/api/staff/${other.id}/factors`, { method: "DELETE", cookie }), params(other.id));
    expect(reset.status).toBe(401);
  });

  it("the forced first enrolment right after the sign-in needs no step-up, gives none, and ends with the sign-in's grace", async () => {
    stubConfigEnv({ MFA_REQUIRED: "privileged" });
    const admin = await createTestStaff(handle.db, { role: "admin", password: "admin password 1" });
    const other = await createTestStaff(handle.db);
    const cookie = await sessionCookieFor(handle.db, admin, { stepUp: false });
    const { secret } = await enrolApp(cookie);
    const reset = () => resetFactors(apiRequest(`/api/staff/${other.id}/factors`, { method: "DELETE", cookie }), params(other.id));
    expect(await errorCode(await reset())).toBe("step_up_required");
    expect((await stepUp(post("/api/account/step-up", cookie, { code: totpCode(secret, Date.now() + period) }))).status).toBe(200);
    expect((await reset()).status).toBe(200);

    // A session still in the enrolment stage past the grace: a stolen one enrols nothing.
    const late = await createTestStaff(handle.db, { role: "admin", password: "admin password 2" });
    const lateCookie = await sessionCookieFor(handle.db, late, { stepUp: false });
    await handle.db
      .update(staffSessions)
      .set({ createdAt: new Date(Date.now() - SIGN_IN_GRACE_MS - 60_000) })
      .where(eq(staffSessions.userId, late.id));
    const refused = await startTotp(post("/api/account/factors/totp", lateCookie, { label: "Late" }));
    expect(refused.status).toBe(401);
    expect(await errorCode(refused)).toBe("step_up_required");
  });

  it("a single-sign-on-only member adds a passkey only when SSO_ONLY_PASSKEYS is on", async () => {
    const user = await createTestStaff(handle.db);
    await updateStaff(handle.db, user.id, { ssoOnly: true });
    const cookie = await sessionCookieFor(handle.db, user, { method: "oidc" });
    const refused = await passkeyOptions(post("/api/account/factors/passkeys/options", cookie));
    expect(refused.status).toBe(403);
    expect(await errorCode(refused)).toBe("forbidden");
    stubConfigEnv({ SSO_ONLY_PASSKEYS: "on" });
    expect((await passkeyOptions(post("/api/account/factors/passkeys/options", cookie))).status).toBe(200);
  });

  it("tells the member of every factor added or removed, in the app and by email, never in the shared chat", async () => {
    stubConfigEnv({ SMTP_URL: "smtp://127.0.0.1:9", CHAT_WEBHOOK_URL: "http://127.0.0.1:9/hook" });
    const user = await createTestStaff(handle.db);
    const admin = await createTestStaff(handle.db, { role: "admin" });
    const cookie = await sessionCookieFor(handle.db, user);
    const { id } = await enrolApp(cookie);
    expect((await removeFactor(apiRequest(`/api/account/factors/${id}`, { method: "DELETE", cookie }), params(id))).status).toBe(200);
    await enrolApp(cookie);
    const adminCookie = await sessionCookieFor(handle.db, admin);
    expect(
      (await resetFactors(apiRequest(`/api/staff/${user.id}/factors`, { method: "DELETE", cookie: adminCookie }), params(user.id))).status,
    ).toBe(200);

    const told = await handle.db.select().from(notifications).where(eq(notifications.userId, user.id));
    expect(told.map((row) => row.kind).sort()).toEqual(["factor_added", "factor_added", "factor_removed", "factor_removed"]);
    const emails = await handle.db
      .select()
      .from(notificationOutbox)
      .where(and(eq(notificationOutbox.channel, "email"), eq(notificationOutbox.recipient, user.email)));
    expect(emails).toHaveLength(4);
    expect(emails.every((row) => row.body.includes("/account"))).toBe(true);
    const chat = await handle.db.select().from(notificationOutbox).where(eq(notificationOutbox.channel, "chat"));
    expect(chat.filter((row) => /second factor|segundo fator/.test(row.subject))).toEqual([]);
  });
});
