import { and, eq } from "drizzle-orm";
import { describe, expect, it, vi } from "vitest";

import { auditEvents } from "@/lib/audit-trail/server/tables";
import { staffUsers } from "@/lib/auth/server/tables";
import { signInErrorFrom } from "@/lib/auth/sign-in-errors";
import { createTestStaff } from "@/test/auth";
import { describeEachDatabase, withDatabase, withTestEnvironment } from "@/test/db";

import { admitOidcSignIn, oidcClaims, oidcIdentity, type Claims } from "./oidc";
import { startSession, validateSession } from "./sessions";

withTestEnvironment();

describe("claims", () => {
  it("come from the ID token when it carries the email, without asking userinfo", async () => {
    const userinfo = vi.fn(async (): Promise<Claims> => ({}));
    const claims = await oidcClaims({ sub: "s1", email: "A@Example.com", email_verified: true }, userinfo);
    expect(userinfo).not.toHaveBeenCalled();
    expect(oidcIdentity(claims)).toEqual({ subject: "s1", email: "a@example.com", emailVerified: true, name: null });
  });

  it("come from userinfo when the ID token has no email, email and verification together", async () => {
    const claims = await oidcClaims({ sub: "s1", email_verified: true, name: "From token" }, async () => ({
      sub: "s1",
      email: "b@example.com",
      email_verified: false,
      name: "From userinfo",
    }));
    expect(oidcIdentity(claims)).toEqual({ subject: "s1", email: "b@example.com", emailVerified: false, name: "From token" });
  });

  it("refuse a userinfo answer about another subject", async () => {
    await expect(oidcClaims({ sub: "s1" }, async () => ({ sub: "s2", email: "c@example.com", email_verified: true }))).rejects.toThrow(
      /another subject/,
    );
  });

  it.each([
    ["missing", {}],
    ['the string "false"', { email_verified: "false" }],
    ['the string "true"', { email_verified: "true" }],
    ["false", { email_verified: false }],
  ])("count email_verified %s as not verified", (_label, extra) => {
    expect(oidcIdentity({ sub: "s", email: "d@example.com", ...extra }).emailVerified).toBe(false);
  });

  it("treat something that is not an email as no email", () => {
    expect(oidcIdentity({ sub: "s", email: "not an email", email_verified: true }).email).toBeNull();
    expect(oidcIdentity({ sub: "s", email: 42, email_verified: true }).email).toBeNull();
  });
});

describeEachDatabase("single sign-on admission on $name", ({ open }) => {
  const handle = withDatabase(open);

  const verified = (email: string | null, subject: string) => ({ subject, email, emailVerified: true, name: null });
  const admit = (identity: ReturnType<typeof verified>, allowUnverifiedEmail = false) =>
    admitOidcSignIn(handle.db, identity, { allowUnverifiedEmail, ip: "192.0.2.80" });
  const failures = async (email: string | null) =>
    handle.db
      .select({ actorEmail: auditEvents.actorEmail, details: auditEvents.details, outcome: auditEvents.outcome })
      .from(auditEvents)
      .where(and(eq(auditEvents.action, "auth.sign_in"), eq(auditEvents.outcome, "failure"), eq(auditEvents.ip, "192.0.2.80")))
      .then((rows) => rows.filter((row) => row.actorEmail === email));

  it("admits an active account by its verified email and binds it to the subject", async () => {
    const user = await createTestStaff(handle.db, { email: "oidc-ok@example.com" });
    const admission = await admit(verified("oidc-ok@example.com", "sub-ok"));
    expect(admission).toEqual({ status: "admitted", staff: { id: user.id, email: user.email, name: user.name, role: "analyst" } });
    const [row] = await handle.db.select({ subject: staffUsers.oidcSubject }).from(staffUsers).where(eq(staffUsers.id, user.id));
    expect(row?.subject).toBe("sub-ok");
    expect(await failures("oidc-ok@example.com")).toEqual([]);
  });

  it("opens a session that an invitation's one-time password does not hold up", async () => {
    const user = await createTestStaff(handle.db, { email: "oidc-invited@example.com" });
    await handle.db.update(staffUsers).set({ mustChangePassword: true }).where(eq(staffUsers.id, user.id));
    const oidc = await startSession(handle.db, { userId: user.id, email: user.email, method: "oidc", ip: null });
    const password = await startSession(handle.db, { userId: user.id, email: user.email, method: "password", ip: null });
    expect((await validateSession(handle.db, { sessionId: oidc, userId: user.id }))?.mustChangePassword).toBe(false);
    expect((await validateSession(handle.db, { sessionId: password, userId: user.id }))?.mustChangePassword).toBe(true);
  });

  it("gives each cause its own reason on the trail and on the page", async () => {
    const off = await createTestStaff(handle.db, { email: "oidc-off@example.com" });
    await handle.db.update(staffUsers).set({ disabled: true }).where(eq(staffUsers.id, off.id));
    await createTestStaff(handle.db, { email: "oidc-bound@example.com" });
    expect((await admit(verified("oidc-bound@example.com", "sub-first"))).status).toBe("admitted");
    await createTestStaff(handle.db, { email: "oidc-second@example.com" });

    const cases = [
      [verified(null, "sub-none"), "email_not_released", null],
      [{ ...verified("oidc-unverified@example.com", "sub-u"), emailVerified: false }, "email_not_verified", "oidc-unverified@example.com"],
      [verified("oidc-nobody@example.com", "sub-n"), "unknown_account", "oidc-nobody@example.com"],
      [verified("oidc-off@example.com", "sub-off"), "disabled", "oidc-off@example.com"],
      [verified("oidc-bound@example.com", "sub-intruder"), "account_bound_to_other_subject", "oidc-bound@example.com"],
      [verified("oidc-second@example.com", "sub-first"), "subject_bound_to_other_account", "oidc-second@example.com"],
    ] as const;
    for (const [identity, reason, email] of cases) {
      const admission = await admit(identity);
      expect(admission).toEqual({ status: "refused", reason, error: `oidc:${reason}` });
      expect(signInErrorFrom(admission.status === "refused" ? admission.error : null)).toEqual({ kind: "oidc", reason });
      expect(await failures(email)).toContainEqual({
        actorEmail: email,
        outcome: "failure",
        details: { method: "oidc", reason, emailVerified: identity.emailVerified },
      });
    }
    // Nothing was created for the unknown email.
    expect(await handle.db.select().from(staffUsers).where(eq(staffUsers.email, "oidc-nobody@example.com"))).toEqual([]);
  });

  it("with unverified emails allowed, admits one but does not tell whether a refused one has an account", async () => {
    const user = await createTestStaff(handle.db, { email: "oidc-lax@example.com" });
    const unverified = (email: string, subject: string) => ({ ...verified(email, subject), emailVerified: false });
    const admitted = await admit(unverified("oidc-lax@example.com", "sub-lax"), true);
    expect(admitted.status === "admitted" && admitted.staff.id).toBe(user.id);
    const unknown = await admit(unverified("oidc-lax-nobody@example.com", "sub-lax-2"), true);
    const bound = await admit(unverified("oidc-lax@example.com", "sub-lax-3"), true);
    expect(unknown).toEqual({ status: "refused", reason: "unknown_account", error: "oidc:no_account" });
    expect(bound).toEqual({ status: "refused", reason: "account_bound_to_other_subject", error: "oidc:no_account" });
    expect(signInErrorFrom("oidc:no_account")).toEqual({ kind: "oidc", reason: "no_account" });
  });
});

describe("sign-in error codes", () => {
  it("read unknown OIDC codes as a plain failure", () => {
    expect(signInErrorFrom("oidc:whatever")).toEqual({ kind: "failed" });
    expect(signInErrorFrom("OAuthCallback")).toEqual({ kind: "failed" });
  });
});
