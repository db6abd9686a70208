import "server-only";

import type { AuthenticationResponseJSON } from "@simplewebauthn/server";
import { eq } from "drizzle-orm";

import type { RequestContext } from "@/lib/audit-trail/server/context";
import { recordEvent, recordSuccess } from "@/lib/audit-trail/server/record";
import { secondFactorRequired } from "@/lib/auth/permissions";
import type { StaffSession } from "@/lib/auth/types";
import { config } from "@/lib/config";
import type { Database } from "@/lib/db/client";
import { clearKeys, consumeUpTo } from "@/lib/db/rate-limit";
import { AppError } from "@/lib/shared/errors";

import { consumeCode, recoveryCodesLeft, verifyPasskey } from "./factors";
import { verifyPassword } from "./password";
import { forgetLocally } from "./session-invalidation";
import { staffSessions, staffUsers } from "./tables";
import type { RelyingParty } from "./webauthn";

/*
 * The second step of a sign-in and the step-up before a sensitive action are one check: a code from an
 * authenticator app, a recovery code, or a passkey, proved in this session; it then counts as fresh for
 * STEP_UP_SECONDS (lib/auth/server/require-role.ts `assertStepUp`). A member who has no factor, and whom the
 * policy does not ask for one, confirms with their password instead. Guesses are limited per member, counted
 * before each check in one statement, so parallel guesses cannot exceed the limit.
 */

export const STEP_UP_ATTEMPTS = 5;
export const STEP_UP_WINDOW_MS = 15 * 60_000;

export type StepUpProof = { code: string } | { password: string } | { passkey: AuthenticationResponseJSON };

export type StepUpMethod = "totp" | "recovery" | "passkey" | "password";

/** How this member can confirm it is them. */
export function stepUpMethods(
  user: StaffSession,
  { hasPasskey, hasApp, recoveryLeft }: { hasPasskey: boolean; hasApp: boolean; recoveryLeft: number },
): StepUpMethod[] {
  if (!user.hasSecondFactor) return passwordStepUpAllowed(user) ? ["password"] : [];
  return [
    ...(hasApp ? (["totp"] as const) : []),
    ...(hasPasskey ? (["passkey"] as const) : []),
    ...(recoveryLeft > 0 ? (["recovery"] as const) : []),
  ];
}

function passwordStepUpAllowed(user: StaffSession): boolean {
  return !user.hasSecondFactor && !secondFactorRequired(config().signIn.mfaRequired, user) && user.awaiting === null;
}

function windowFor(now: Date) {
  const start = new Date(Math.floor(now.getTime() / STEP_UP_WINDOW_MS) * STEP_UP_WINDOW_MS);
  return { start, end: new Date(start.getTime() + STEP_UP_WINDOW_MS) };
}

async function checkProof(db: Database, user: StaffSession, proof: StepUpProof, rp: RelyingParty | undefined, now: Date) {
  if ("passkey" in proof) {
    if (!rp) return null;
    const result = await verifyPasskey(db, { response: proof.passkey, rp, userId: user.id, sessionId: user.sessionId }, now);
    return result ? { method: "passkey" as const, field: "passkey" } : null;
  }
  if ("password" in proof) {
    if (!passwordStepUpAllowed(user)) throw new AppError("validation", "Confirm with your second factor.", { fields: ["code"] });
    const [row] = await db.select({ hash: staffUsers.passwordHash }).from(staffUsers).where(eq(staffUsers.id, user.id));
    return row?.hash && (await verifyPassword(proof.password, row.hash)) ? { method: "password" as const } : null;
  }
  if (!user.hasSecondFactor)
    throw new AppError("validation", "You have no second factor yet: add one in your account.", { fields: ["code"] });
  return consumeCode(db, user.id, proof.code, now);
}

/**
 * Verifies the proof for this session: on success the session's second factor is fresh (and a sign-in
 * awaiting it is complete); a wrong proof is a 400 naming the field; too many, a 429.
 */
export async function verifyStepUp(
  db: Database,
  user: StaffSession,
  proof: StepUpProof,
  { context, rp }: { context: RequestContext; rp?: RelyingParty },
  now = new Date(),
): Promise<{ verifiedAt: Date; until: Date }> {
  const action = user.awaiting === "second_factor" ? "auth.second_factor" : "auth.step_up";
  const field = "password" in proof ? "password" : "passkey" in proof ? "passkey" : "code";
  const key = `step-up:${user.id}`;
  const { start, end } = windowFor(now);
  const slot = await consumeUpTo(db, key, { amount: 1, limit: STEP_UP_ATTEMPTS, start, end });
  if (!slot.allowed) {
    await recordEvent({ actor: context.actor, action, outcome: "denied", ip: context.ip, details: { reason: "throttled" }, at: now }, db);
    throw new AppError("rate_limited", "Too many attempts. Wait a few minutes and try again.", {
      retryAfterSeconds: Math.ceil((end.getTime() - now.getTime()) / 1000),
    });
  }
  const result = await checkProof(db, user, proof, rp, now);
  if (!result) {
    await recordEvent(
      { actor: context.actor, action, outcome: "failure", ip: context.ip, details: { reason: `wrong_${field}` }, at: now },
      db,
    );
    throw new AppError("validation", field === "password" ? "The password is not right." : "The code is not valid.", { fields: [field] });
  }
  await db.transaction(async (tx) => {
    await tx.update(staffSessions).set({ secondFactorAt: now, pending: null }).where(eq(staffSessions.id, user.sessionId));
    const left = result.method === "recovery" ? await recoveryCodesLeft(tx, user.id) : undefined;
    await recordSuccess(
      context,
      {
        action,
        details: { method: result.method, ...(left !== undefined ? { recoveryCodesLeft: left } : {}) },
        at: now,
      },
      tx,
    );
  });
  await clearKeys(db, [key]);
  forgetLocally({ sessionId: user.sessionId });
  return { verifiedAt: now, until: new Date(now.getTime() + config().signIn.stepUpSeconds * 1000) };
}
