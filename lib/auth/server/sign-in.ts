import "server-only";

import { setTimeout as sleep } from "node:timers/promises";

import { recordEvent } from "@/lib/audit-trail/server/record";
import { normaliseEmail } from "@/lib/auth/credentials";
import type { RoleRef } from "@/lib/auth/roles";
import { isDemoAccount } from "@/lib/auth/server/seed";
import { getStaffCredentials } from "@/lib/auth/server/staff-store";
import type { Database } from "@/lib/db/client";

import { dummyPasswordHash, verifyPassword } from "./password";
import { checkSignInThrottle, clearAccountFailures, recordSignInFailure } from "./throttle";

/*
 * The password check behind the credentials provider. One answer ("invalid") for an unknown email, a
 * wrong password and a disabled account; an unknown email is checked against a dummy hash so it takes
 * as long as a known one. Every refusal is counted (throttle) and recorded (audit).
 */

export type PasswordSignInResult =
  | { status: "ok"; user: { id: string; email: string; name: string; role: RoleRef } }
  | { status: "invalid" }
  | { status: "locked"; retryAfterMs: number };

const EMAIL_SHAPE = /^[^\s@]{1,64}@[^\s@]{1,190}$/;

export async function attemptPasswordSignIn(
  db: Database,
  { email, password, address, allowDemoAccounts }: { email: string; password: string; address: string; allowDemoAccounts: boolean },
  { now = () => new Date(), wait = (ms: number) => sleep(ms) } = {},
): Promise<PasswordSignInResult> {
  const account = normaliseEmail(email);
  // What the audit trail may say about who tried: the email typed, unless it is no email at all (a
  // password typed into the wrong box must not end up in the trail).
  const triedAs = { id: null, email: EMAIL_SHAPE.test(account) ? account : null };

  const gate = await checkSignInThrottle(db, { email: account, address }, now());
  if (!gate.allowed) {
    await recordEvent(
      { actor: triedAs, action: "auth.sign_in", outcome: "denied", ip: address, details: { method: "password", reason: "throttled" } },
      db,
    );
    return { status: "locked", retryAfterMs: gate.retryAfterMs };
  }
  if (gate.delayMs > 0) await wait(gate.delayMs);

  const row = await getStaffCredentials(db, account);
  const usable = row && !row.disabled && row.passwordHash && (allowDemoAccounts || !isDemoAccount(row.email)) ? row : null;
  const matches = await verifyPassword(password, usable?.passwordHash ?? (await dummyPasswordHash()));
  if (usable && matches) {
    await clearAccountFailures(db, account, address);
    return { status: "ok", user: { id: usable.id, email: usable.email, name: usable.name, role: usable.role } };
  }

  const { lockedForMs, locks } = await recordSignInFailure(db, { email: account, address }, now());
  const reason = !row ? "unknown_account" : row.disabled ? "disabled" : usable ? "wrong_password" : "no_password";
  await recordEvent(
    {
      actor: triedAs,
      action: "auth.sign_in",
      target: row ? { type: "staff", id: row.id } : undefined,
      outcome: "failure",
      ip: address,
      // The trail shows the throttle at work: how long this attempt was held back, and any lock it set.
      details: {
        method: "password",
        reason,
        ...(gate.delayMs > 0 ? { delayMs: gate.delayMs } : {}),
        ...(locks.length > 0 ? { locked: locks.join(",") } : {}),
      },
    },
    db,
  );
  return lockedForMs > 0 ? { status: "locked", retryAfterMs: lockedForMs } : { status: "invalid" };
}
