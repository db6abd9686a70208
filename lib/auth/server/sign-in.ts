import "server-only";

import { recordEvent } from "@/lib/audit-trail/server/record";
import { normaliseEmail } from "@/lib/auth/credentials";
import type { RoleRef } from "@/lib/auth/roles";
import { isDemoAccount } from "@/lib/auth/server/seed";
import { getStaffCredentials, spendOneTimePassword } from "@/lib/auth/server/staff-store";
import { config } from "@/lib/config";
import type { Database } from "@/lib/db/client";

import { dummyPasswordHash, verifyPassword } from "./password";
import { takeSignInAttempt, type SignInLockScope } from "./throttle";

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
  ) =>
    recordEvent(
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

  if (!config().signIn.passwordSignIn) {
    await refuse("password_sign_in_off", undefined, "denied");
    return { status: "invalid" };
  }
  const slot = await takeSignInAttempt(db, { email: account, address }, now());
  if (!slot.allowed) {
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
