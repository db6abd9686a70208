import "server-only";

import {
  generateAuthenticationOptions,
  verifyAuthenticationResponse,
  type AuthenticationResponseJSON,
  type PublicKeyCredentialRequestOptionsJSON,
} from "@simplewebauthn/server";
import { and, asc, count, eq, inArray, isNotNull, isNull, lt, or } from "drizzle-orm";

import type { RequestContext } from "@/lib/audit-trail/server/context";
import { recordEvent } from "@/lib/audit-trail/server/record";
import type { StaffSession } from "@/lib/auth/types";
import { config } from "@/lib/config";
import type { Database } from "@/lib/db/client";
import { consume } from "@/lib/db/rate-limit";
import { AppError } from "@/lib/shared/errors";

import { openFactorSecretWithKey, recoveryCodeHashes, sealFactorSecret } from "./factor-secret";
import { forgetLocally } from "./session-invalidation";
import { staffFactors, staffRecoveryCodes, staffSessions, staffUsers, type StaffFactorRow } from "./tables";
import { addressGroup } from "./throttle";
import { matchTotp } from "./totp";
import { storeChallenge, takeChallenge, type RelyingParty } from "./webauthn";

/*
 * A member's second factors (docs/security.md#second-factors): authenticator apps and passkeys, several each,
 * labelled; ten single-use recovery codes made at the first enrolment and shown once. Here what sign-in, step-up
 * and an admin's reset need; the member adding and removing their own is lib/account/server/factors.ts. Every change is recorded
 * on the audit trail in the same transaction, without any secret, code or key, and touches the member's row so
 * every instance re-reads their sessions (the session-change trigger on staff_users).
 */

export interface FactorDto {
  id: string;
  kind: "totp" | "passkey";
  label: string;
  confirmed: boolean;
  createdAt: string;
  lastUsedAt: string | null;
}

export type Member = Pick<StaffSession, "id" | "email"> & { sessionId?: string };

export function toDto(row: StaffFactorRow): FactorDto {
  return {
    id: row.id,
    kind: row.kind,
    label: row.label,
    confirmed: row.confirmedAt !== null,
    createdAt: row.createdAt.toISOString(),
    lastUsedAt: row.lastUsedAt?.toISOString() ?? null,
  };
}

export async function listFactors(db: Database, userId: string): Promise<FactorDto[]> {
  const rows = await db.select().from(staffFactors).where(eq(staffFactors.userId, userId)).orderBy(asc(staffFactors.createdAt));
  return rows.filter((row) => row.confirmedAt !== null).map(toDto);
}

export async function recoveryCodesLeft(db: Database, userId: string): Promise<number> {
  const [row] = await db
    .select({ left: count() })
    .from(staffRecoveryCodes)
    .where(and(eq(staffRecoveryCodes.userId, userId), isNull(staffRecoveryCodes.usedAt)));
  return row?.left ?? 0;
}

/** Every instance forgets the member's cached sessions (they carry `hasSecondFactor`). */
export async function announceFactorChange(tx: Database, userId: string, now: Date): Promise<void> {
  await tx.update(staffUsers).set({ updatedAt: now }).where(eq(staffUsers.id, userId));
}

/**
 * Tells the member of a factor added or removed (lib/account/server/factor-notices.ts: in the app and by email):
 * `within` runs in the change's transaction, so the notice commits with it; `after`, once it has committed.
 * Passed in by the route, since the notifications feature sits above this layer.
 */
export interface FactorNotices {
  within(tx: Database, notice: { userId: string; change: "added" | "removed"; key: string }): Promise<void>;
  after(): void;
}

/**
 * Takes a TOTP code for one of the member's app factors: the step it matches must be later than the last one
 * accepted, in one conditional update, so a code works once even when two requests bring it together.
 */
export async function consumeTotp(
  db: Database,
  factor: StaffFactorRow,
  code: string,
  now: Date,
  { confirming = false } = {},
): Promise<boolean> {
  const opened = openFactorSecretWithKey(factor.totpSecret!);
  const step = matchTotp(opened.secret, code, now.getTime());
  if (step === null) return false;
  // Opened under an older NEXTAUTH_SECRET key: sealed again under the current one, so that key can retire.
  const resealed = opened.stale ? { totpSecret: sealFactorSecret(opened.secret) } : {};
  const taken = await db
    .update(staffFactors)
    .set({ lastStep: step, lastUsedAt: now, ...resealed, ...(confirming ? { confirmedAt: now } : {}) })
    .where(and(eq(staffFactors.id, factor.id), or(isNull(staffFactors.lastStep), lt(staffFactors.lastStep, step))))
    .returning({ id: staffFactors.id });
  return taken.length > 0;
}

/** Who changes a factor (for the trail) and how the member is told of it. */
export interface FactorChange {
  context: RequestContext;
  notices: FactorNotices;
}

// ---------------------------------------------------------------------------------------------------------
// Passkeys

export async function memberPasskeys(db: Database, userId: string) {
  return db
    .select({ credentialId: staffFactors.credentialId, transports: staffFactors.transports })
    .from(staffFactors)
    .where(and(eq(staffFactors.userId, userId), eq(staffFactors.kind, "passkey")));
}

/** Whether single sign-on only members may hold a passkey (SSO_ONLY_PASSKEYS): off, the identity provider stays their one door. */
export function passkeyAllowedFor(staff: { ssoOnly: boolean }): boolean {
  return !staff.ssoOnly || config().signIn.ssoOnlyPasskeys;
}

export type Transports = NonNullable<
  NonNullable<Parameters<typeof generateAuthenticationOptions>[0]["allowCredentials"]>[number]["transports"]
>;

/** Sign-in options (each a stored challenge) one client address may ask for per minute. */
export const SIGN_IN_OPTIONS_PER_MINUTE = 20;
/** Sign-in challenges outstanding at once, from everyone (each lives CHALLENGE_TTL_MS): the table's bound. */
export const MAX_PENDING_SIGN_IN_CHALLENGES = 2000;

/** Refuses (429) a client address past its budget of sign-in options: anyone may ask, and each answer is a stored row. */
async function takeSignInOptionsSlot(db: Database, address: string, now: Date): Promise<void> {
  const slot = await consume(db, `passkey-options:${addressGroup(address)}`, { limit: SIGN_IN_OPTIONS_PER_MINUTE, windowMs: 60_000 }, now);
  if (!slot.allowed) {
    throw new AppError("rate_limited", "Too many passkey sign-in attempts. Wait a minute and try again.", {
      retryAfterSeconds: Math.ceil(slot.retryAfterMs / 1000),
    });
  }
}

/**
 * Options to sign with a passkey: the member's own (a step-up), or any discoverable one (signing in, for anyone,
 * so bounded per client address and in all: SIGN_IN_OPTIONS_PER_MINUTE, MAX_PENDING_SIGN_IN_CHALLENGES).
 */
export async function passkeyAuthenticationOptions(
  db: Database,
  {
    member,
    rp,
    address,
  }: { member: Member; rp: RelyingParty; address?: undefined } | { member?: undefined; rp: RelyingParty; address: string },
  now = new Date(),
): Promise<PublicKeyCredentialRequestOptionsJSON> {
  if (!member) await takeSignInOptionsSlot(db, address, now);
  const allow = member ? await memberPasskeys(db, member.id) : [];
  if (member && allow.length === 0) throw new AppError("conflict", "You have no passkey. Use your code instead.");
  const options = await generateAuthenticationOptions({
    rpID: rp.id,
    userVerification: "required",
    allowCredentials: allow.map((row) => ({ id: row.credentialId!, transports: (row.transports ?? undefined) as Transports })),
  });
  await storeChallenge(
    db,
    {
      purpose: member ? "step_up" : "passkey_sign_in",
      challenge: options.challenge,
      userId: member?.id ?? null,
      sessionId: member?.sessionId ?? null,
      ...(member ? {} : { cap: MAX_PENDING_SIGN_IN_CHALLENGES }),
    },
    now,
  );
  return options;
}

/**
 * Checks a passkey's signature over a challenge this dashboard issued (for this member and session when given),
 * and moves its counter on. The member whose passkey it is, or null.
 */
export async function verifyPasskey(
  db: Database,
  { response, rp, userId, sessionId }: { response: AuthenticationResponseJSON; rp: RelyingParty; userId?: string; sessionId?: string },
  now = new Date(),
): Promise<{ userId: string; factorId: string } | null> {
  const [factor] = await db
    .select()
    .from(staffFactors)
    .where(and(eq(staffFactors.kind, "passkey"), eq(staffFactors.credentialId, String(response?.id ?? ""))));
  if (!factor || (userId && factor.userId !== userId)) return null;
  try {
    const result = await verifyAuthenticationResponse({
      response,
      expectedChallenge: (challenge) =>
        takeChallenge(db, userId ? { purpose: "step_up", challenge, userId, sessionId } : { purpose: "passkey_sign_in", challenge }),
      expectedOrigin: rp.origin,
      expectedRPID: rp.id,
      requireUserVerification: true,
      credential: {
        id: factor.credentialId!,
        publicKey: new Uint8Array(Buffer.from(factor.publicKey!, "base64url")),
        counter: factor.signCount ?? 0,
      },
    });
    if (!result.verified) return null;
    await db
      .update(staffFactors)
      .set({ signCount: result.authenticationInfo.newCounter, lastUsedAt: now })
      .where(eq(staffFactors.id, factor.id));
    return { userId: factor.userId, factorId: factor.id };
  } catch {
    return null;
  }
}

// ---------------------------------------------------------------------------------------------------------
// Codes at sign-in and step-up

/** Whether `code` is a current code of one of the member's apps (used up if so), or one of their recovery codes (idem). */
export async function consumeCode(
  db: Database,
  userId: string,
  code: string,
  now = new Date(),
): Promise<{ method: "totp" | "recovery"; factorId?: string } | null> {
  const trimmed = code.trim();
  if (/^\d{6}$/.test(trimmed)) {
    const apps = await db
      .select()
      .from(staffFactors)
      .where(and(eq(staffFactors.userId, userId), eq(staffFactors.kind, "totp"), isNotNull(staffFactors.confirmedAt)));
    for (const app of apps) if (await consumeTotp(db, app, trimmed, now)) return { method: "totp", factorId: app.id };
    return null;
  }
  const used = await db
    .update(staffRecoveryCodes)
    .set({ usedAt: now })
    .where(
      and(
        eq(staffRecoveryCodes.userId, userId),
        // Made under any key of the NEXTAUTH_SECRET ring (a rotation keeps every unused code).
        inArray(staffRecoveryCodes.codeHash, recoveryCodeHashes(userId, trimmed)),
        isNull(staffRecoveryCodes.usedAt),
      ),
    )
    .returning({ id: staffRecoveryCodes.id });
  return used.length > 0 ? { method: "recovery" } : null;
}

/**
 * An admin's reset of a member who lost their factors: every factor and recovery code goes, and so do the
 * member's sessions; at the next sign-in they enrol again if the policy asks. The number of factors removed.
 */
export async function resetFactors(db: Database, targetId: string, { context, notices }: FactorChange, now = new Date()): Promise<number> {
  const removed = await db.transaction(async (tx) => {
    const [target] = await tx.select({ id: staffUsers.id }).from(staffUsers).where(eq(staffUsers.id, targetId));
    if (!target) throw new AppError("not_found", "No such staff member.");
    const gone = await tx.delete(staffFactors).where(eq(staffFactors.userId, targetId)).returning({ id: staffFactors.id });
    await tx.delete(staffRecoveryCodes).where(eq(staffRecoveryCodes.userId, targetId));
    await tx
      .update(staffSessions)
      .set({ revokedAt: now })
      .where(and(eq(staffSessions.userId, targetId), isNull(staffSessions.revokedAt)));
    await announceFactorChange(tx, targetId, now);
    if (gone.length > 0) await notices.within(tx, { userId: targetId, change: "removed", key: `reset:${now.toISOString()}` });
    await recordEvent(
      {
        actor: context.actor,
        action: "staff.factors_reset",
        target: { type: "staff", id: targetId },
        outcome: "success",
        ip: context.ip,
        details: { removed: gone.length },
        at: now,
      },
      tx,
    );
    return gone.length;
  });
  notices.after();
  forgetLocally({ userId: targetId });
  return removed;
}

/** How many confirmed factors each of these members holds (the staff list shows it). */
export async function factorCounts(db: Database, userIds: string[]): Promise<Map<string, number>> {
  if (userIds.length === 0) return new Map();
  const rows = await db
    .select({ userId: staffFactors.userId, n: count() })
    .from(staffFactors)
    .where(and(isNotNull(staffFactors.confirmedAt), inArray(staffFactors.userId, userIds)))
    .groupBy(staffFactors.userId);
  return new Map(rows.map((row) => [row.userId, row.n]));
}
