import "server-only";

import type { AuthenticationResponseJSON } from "@simplewebauthn/server";

import { recordEvent } from "@/lib/audit-trail/server/record";
import { normaliseEmail } from "@/lib/auth/credentials";
import type { RoleRef } from "@/lib/auth/roles";
import { isDemoAccount } from "@/lib/auth/server/seed";
import { getStaff, getStaffCredentials, spendOneTimePassword } from "@/lib/auth/server/staff-store";
import { config } from "@/lib/config";
import type { Database } from "@/lib/db/client";
import { metrics } from "@/lib/metrics/registry";

import { passkeyAllowedFor, verifyPasskey } from "./factors";
import { dummyPasswordHash, verifyPassword } from "./password";
import { takeAddressAttempt, takeSignInAttempt, type SignInLockScope } from "./throttle";
import type { RelyingParty } from "./webauthn";

/*
 * The password check behind the credentials provider. One answer ("invalid") for an unknown email, a wrong
 * password, a disabled account, a single-sign-on-only member and a spent or expired one-time password; an
 * unknown email is checked against a dummy hash so it takes as long as a known one. An attempt is counted
 * before the password is checked (lib/auth/server/throttle.ts), so parallel guesses cannot outrun the limit;
 * every refusal is recorded on the audit trail.
 */

export type PasswordSignInResult =
  | { status: "ok"; user: { id: string; email: string; name: string; role: RoleRef } }
  | { status: "invalid" }
  | { status: "locked"; retryAfterMs: number; scope: SignInLockScope };

const EMAIL_SHAPE = /^[^\s@]{1,64}@[^\s@]{1,190}$/;

type Refusal =
  "unknown_account" | "disabled" | "no_password" | "sso_only" | "one_time_password_expired" | "one_time_password_used" | "wrong_password";

export async function attemptPasswordSignIn(
  db: Database,
  { email, password, address, allowDemoAccounts }: { email: string; password: string; address: string; allowDemoAccounts: boolean },
  { now = () => new Date() } = {},
): Promise<PasswordSignInResult> {
  const account = normaliseEmail(email);
  // What the audit trail may say about who tried: the email typed, unless it is no email at all (a
  // password typed into the wrong box must not end up in the trail).
  const triedAs = { id: null, email: EMAIL_SHAPE.test(account) ? account : null };
  const refuse = async (
    reason: Refusal | "throttled" | "password_sign_in_off",
    targetId?: string,
    outcome: "failure" | "denied" = "failure",
  ) => {
    metrics().signInFailures.inc({ reason });
    return recordEvent(
      {
        actor: triedAs,
        action: "auth.sign_in",
        target: targetId ? { type: "staff", id: targetId } : undefined,
        outcome,
        ip: address,
        details: { method: "password", reason },
      },
      db,
    );
  };

  if (!config().signIn.passwordSignIn) {
    await refuse("password_sign_in_off", undefined, "denied");
    return { status: "invalid" };
  }
  const slot = await takeSignInAttempt(db, { email: account, address }, now());
  if (!slot.allowed) {
    metrics().signInLocks.inc({ scope: slot.scope });
    await recordEvent(
      {
        actor: triedAs,
        action: "auth.sign_in",
        outcome: "denied",
        ip: address,
        details: { method: "password", reason: "throttled", scope: slot.scope },
      },
      db,
    );
    return { status: "locked", retryAfterMs: slot.retryAfterMs, scope: slot.scope };
  }

  const row = await getStaffCredentials(db, account);
  const usable = row && !row.disabled && row.passwordHash && (allowDemoAccounts || !isDemoAccount(row.email)) ? row : null;
  const matches = await verifyPassword(password, usable?.passwordHash ?? (await dummyPasswordHash()));
  const refusal: Refusal | null = !row
    ? "unknown_account"
    : row.disabled
      ? "disabled"
      : !usable
        ? "no_password"
        : !matches
          ? "wrong_password"
          : row.ssoOnly
            ? "sso_only"
            : row.passwordExpiresAt && row.passwordExpiresAt.getTime() <= now().getTime()
              ? "one_time_password_expired"
              : row.mustChangePassword && !(await spendOneTimePassword(db, row.id, now()))
                ? "one_time_password_used"
                : null;
  if (refusal === null && usable) {
    await slot.settle("success");
    return { status: "ok", user: { id: usable.id, email: usable.email, name: usable.name, role: usable.role } };
  }
  // A right password refused for the account's state is not a guess: it does not count against anyone.
  if (matches) await slot.settle("success");
  await refuse(refusal ?? "wrong_password", row?.id);
  return { status: "invalid" };
}

type PasskeyRefusal = "passkey_not_verified" | "unknown_account" | "disabled" | "sso_only" | "demo_account";

/**
 * The passkey check behind the `passkey` provider, held to what the password path checks of the account: the
 * address's attempt budget (a refused passkey counts like a wrong password), a disabled account, a single-sign-on-only
 * member (unless SSO_ONLY_PASSKEYS), a demo account outside the sandbox. One answer for every refusal; each is on
 * the trail with its reason.
 */
export async function attemptPasskeySignIn(
  db: Database,
  {
    response,
    rp,
    address,
    allowDemoAccounts,
  }: { response: AuthenticationResponseJSON; rp: RelyingParty; address: string; allowDemoAccounts: boolean },
  { now = () => new Date() } = {},
): Promise<PasswordSignInResult> {
  const slot = await takeAddressAttempt(db, address, now());
  const refuse = async (reason: PasskeyRefusal | "throttled", staff?: { id: string; email: string } | null) => {
    if (slot.allowed) metrics().signInFailures.inc({ reason });
    else metrics().signInLocks.inc({ scope: slot.scope });
    return recordEvent(
      {
        actor: { id: null, email: staff?.email ?? null },
        action: "auth.sign_in",
        target: staff ? { type: "staff", id: staff.id } : undefined,
        outcome: reason === "throttled" ? "denied" : "failure",
        ip: address,
        details: { method: "passkey", reason, ...(slot.allowed ? {} : { scope: slot.scope }) },
      },
      db,
    );
  };
  if (!slot.allowed) {
    await refuse("throttled");
    return { status: "locked", retryAfterMs: slot.retryAfterMs, scope: slot.scope };
  }
  const proved = await verifyPasskey(db, { response, rp }, now());
  const staff = proved ? await getStaff(db, proved.userId) : null;
  const refusal: PasskeyRefusal | null = !proved
    ? "passkey_not_verified"
    : !staff
      ? "unknown_account"
      : staff.disabled
        ? "disabled"
        : !passkeyAllowedFor(staff)
          ? "sso_only"
          : !allowDemoAccounts && isDemoAccount(staff.email)
            ? "demo_account"
            : null;
  // A passkey that verified is no guess, whatever the account's state: it does not count against the address.
  if (proved) await slot.settle("success");
  if (refusal !== null || !staff) {
    await refuse(refusal ?? "unknown_account", staff);
    return { status: "invalid" };
  }
  return { status: "ok", user: { id: staff.id, email: staff.email, name: staff.name, role: staff.role } };
}
