import "server-only";

import { randomBytes } from "node:crypto";

import {
  generateAuthenticationOptions,
  generateRegistrationOptions,
  verifyAuthenticationResponse,
  verifyRegistrationResponse,
  type AuthenticationResponseJSON,
  type PublicKeyCredentialCreationOptionsJSON,
  type PublicKeyCredentialRequestOptionsJSON,
  type RegistrationResponseJSON,
} from "@simplewebauthn/server";
import { and, asc, count, eq, inArray, isNotNull, isNull, lt, or } from "drizzle-orm";
import QRCode from "qrcode";

import type { RequestContext } from "@/lib/audit-trail/server/context";
import { recordEvent } from "@/lib/audit-trail/server/record";
import { secondFactorRequired } from "@/lib/auth/permissions";
import type { StaffSession } from "@/lib/auth/types";
import { config } from "@/lib/config";
import type { Database } from "@/lib/db/client";
import { consume } from "@/lib/db/rate-limit";
import { AppError } from "@/lib/shared/errors";

import { openFactorSecretWithKey, recoveryCodeHash, recoveryCodeHashes, sealFactorSecret } from "./factor-secret";
import { staffFactors, staffRecoveryCodes, staffSessions, staffUsers, type StaffFactorRow } from "./tables";
import { forgetLocally } from "./session-invalidation";
import { addressGroup } from "./throttle";
import { matchTotp, newTotpSecret, totpUri } from "./totp";
import { relyingParty, storeChallenge, takeChallenge, type RelyingParty } from "./webauthn";

/*
 * A member's second factors (docs/security.md#second-factors): authenticator apps and passkeys, several each,
 * labelled; ten single-use recovery codes made at the first enrolment and shown once. Every change is recorded
 * on the audit trail in the same transaction, without any secret, code or key, and touches the member's row so
 * every instance re-reads their sessions (the session-change trigger on staff_users).
 */

export const RECOVERY_CODE_COUNT = 10;
export const MAX_FACTORS = 10;
const UNCONFIRMED_TTL_MS = 15 * 60_000;

export interface FactorDto {
  id: string;
  kind: "totp" | "passkey";
  label: string;
  confirmed: boolean;
  createdAt: string;
  lastUsedAt: string | null;
}

export type Member = Pick<StaffSession, "id" | "email"> & { sessionId?: string };

function toDto(row: StaffFactorRow): FactorDto {
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
async function announceFactorChange(tx: Database, userId: string, now: Date): Promise<void> {
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

/** Ten new codes, kept hashed; only at the member's first enrolment (a later factor leaves the codes alone). */
async function issueRecoveryCodes(tx: Database, userId: string): Promise<string[] | undefined> {
  const [existing] = await tx.select({ n: count() }).from(staffRecoveryCodes).where(eq(staffRecoveryCodes.userId, userId));
  if ((existing?.n ?? 0) > 0) return undefined;
  const codes = Array.from({ length: RECOVERY_CODE_COUNT }, () => {
    const raw = randomBytes(8).toString("hex").slice(0, 10);
    return `${raw.slice(0, 5)}-${raw.slice(5)}`;
  });
  await tx.insert(staffRecoveryCodes).values(codes.map((code) => ({ userId, codeHash: recoveryCodeHash(userId, code) })));
  return codes;
}

async function assertRoomForFactor(db: Database, userId: string): Promise<void> {
  const [row] = await db
    .select({ n: count() })
    .from(staffFactors)
    .where(and(eq(staffFactors.userId, userId), isNotNull(staffFactors.confirmedAt)));
  if ((row?.n ?? 0) >= MAX_FACTORS) throw new AppError("conflict", `A member may hold at most ${MAX_FACTORS} second factors.`);
}

// ---------------------------------------------------------------------------------------------------------
// Authenticator apps

export interface TotpEnrolment {
  id: string;
  secret: string;
  otpauthUri: string;
  qrDataUrl: string;
}

/** Starts an authenticator-app factor: it counts only once a first code confirms it (within 15 minutes). */
export async function startTotpEnrolment(db: Database, member: Member, label: string, now = new Date()): Promise<TotpEnrolment> {
  await assertRoomForFactor(db, member.id);
  const secret = newTotpSecret();
  // Enrolments never confirmed are dropped as new ones start.
  await db
    .delete(staffFactors)
    .where(
      and(
        eq(staffFactors.userId, member.id),
        isNull(staffFactors.confirmedAt),
        lt(staffFactors.createdAt, new Date(now.getTime() - UNCONFIRMED_TTL_MS)),
      ),
    );
  const [row] = await db
    .insert(staffFactors)
    .values({ userId: member.id, kind: "totp", label, totpSecret: sealFactorSecret(secret), createdAt: now })
    .returning({ id: staffFactors.id });
  const otpauthUri = totpUri(secret, member.email);
  return { id: row!.id, secret, otpauthUri, qrDataUrl: await QRCode.toDataURL(otpauthUri, { margin: 1, width: 240 }) };
}

const wrongCode = () =>
  new AppError("validation", "The code is not valid. Check the app's current code and try again.", { fields: ["code"] });

/**
 * Takes a TOTP code for one of the member's app factors: the step it matches must be later than the last one
 * accepted, in one conditional update, so a code works once even when two requests bring it together.
 */
async function consumeTotp(db: Database, factor: StaffFactorRow, code: string, now: Date, { confirming = false } = {}): Promise<boolean> {
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

export interface EnrolmentResult {
  factor: FactorDto;
  /** Only at the member's first enrolment: shown once, never again. */
  recoveryCodes?: string[];
}

/** Who changes a factor (for the trail) and how the member is told of it. */
export interface FactorChange {
  context: RequestContext;
  notices: FactorNotices;
}

export async function confirmTotp(
  db: Database,
  member: Member,
  factorId: string,
  code: string,
  change: FactorChange,
  now = new Date(),
): Promise<EnrolmentResult> {
  const [factor] = await db
    .select()
    .from(staffFactors)
    .where(and(eq(staffFactors.id, factorId), eq(staffFactors.userId, member.id), eq(staffFactors.kind, "totp")));
  if (!factor) throw new AppError("not_found", "No such authenticator app enrolment.");
  if (factor.confirmedAt) throw new AppError("conflict", "This authenticator app is already confirmed.");
  if (now.getTime() - factor.createdAt.getTime() > UNCONFIRMED_TTL_MS) {
    throw new AppError("conflict", "This enrolment has expired. Start again to get a new QR code.");
  }
  const result = await db.transaction(async (tx) => {
    if (!(await consumeTotp(tx, factor, code, now, { confirming: true }))) throw wrongCode();
    return finishEnrolment(tx, member, factor.id, "totp", change, now);
  });
  change.notices.after();
  return result;
}

/**
 * The enrolment's trail event, notice and recovery codes, in its transaction. Enrolling is no step-up: the session's
 * step-up time is left as it was, so a session that could not step up cannot mint itself one with a new factor.
 */
async function finishEnrolment(
  tx: Database,
  member: Member,
  factorId: string,
  kind: "totp" | "passkey",
  { context, notices }: FactorChange,
  now: Date,
): Promise<EnrolmentResult> {
  const recoveryCodes = await issueRecoveryCodes(tx, member.id);
  await announceFactorChange(tx, member.id, now);
  await notices.within(tx, { userId: member.id, change: "added", key: `added:${factorId}` });
  await recordEvent(
    {
      actor: context.actor,
      action: "auth.factor_enrol",
      target: { type: "staff", id: member.id },
      outcome: "success",
      ip: context.ip,
      details: { kind, ...(recoveryCodes ? { recoveryCodesIssued: recoveryCodes.length } : {}) },
      at: now,
    },
    tx,
  );
  const [row] = await tx.select().from(staffFactors).where(eq(staffFactors.id, factorId));
  forgetLocally({ userId: member.id });
  return { factor: toDto(row!), ...(recoveryCodes ? { recoveryCodes } : {}) };
}

// ---------------------------------------------------------------------------------------------------------
// Passkeys

async function memberPasskeys(db: Database, userId: string) {
  return db
    .select({ credentialId: staffFactors.credentialId, transports: staffFactors.transports })
    .from(staffFactors)
    .where(and(eq(staffFactors.userId, userId), eq(staffFactors.kind, "passkey")));
}

/** Whether single sign-on only members may hold a passkey (SSO_ONLY_PASSKEYS): off, the identity provider stays their one door. */
export function passkeyAllowedFor(staff: { ssoOnly: boolean }): boolean {
  return !staff.ssoOnly || config().signIn.ssoOnlyPasskeys;
}

async function assertPasskeyAllowed(db: Database, userId: string): Promise<void> {
  const [row] = await db.select({ ssoOnly: staffUsers.ssoOnly }).from(staffUsers).where(eq(staffUsers.id, userId));
  if (row && !passkeyAllowedFor(row)) {
    throw new AppError("forbidden", "Your account signs in through single sign-on only: it cannot add a passkey.");
  }
}

type Transports = NonNullable<NonNullable<Parameters<typeof generateAuthenticationOptions>[0]["allowCredentials"]>[number]["transports"]>;

export async function passkeyRegistrationOptions(
  db: Database,
  member: Member & { name: string },
  rp: RelyingParty,
): Promise<PublicKeyCredentialCreationOptionsJSON> {
  await assertPasskeyAllowed(db, member.id);
  await assertRoomForFactor(db, member.id);
  const existing = await memberPasskeys(db, member.id);
  const options = await generateRegistrationOptions({
    rpName: rp.name,
    rpID: rp.id,
    userName: member.email,
    userDisplayName: member.name || member.email,
    // The user handle is the member's id: it names no person, and a discoverable sign-in returns it.
    userID: new TextEncoder().encode(member.id),
    attestationType: "none",
    excludeCredentials: existing.map((row) => ({ id: row.credentialId!, transports: (row.transports ?? undefined) as Transports })),
    // Discoverable (a passkey signs in on its own) and verified on the device (PIN, biometrics): a second factor by itself.
    authenticatorSelection: { residentKey: "required", userVerification: "required" },
  });
  await storeChallenge(db, { purpose: "passkey_register", challenge: options.challenge, userId: member.id, sessionId: member.sessionId });
  return options;
}

export async function registerPasskey(
  db: Database,
  member: Member,
  { label, response }: { label: string; response: RegistrationResponseJSON },
  rp: RelyingParty,
  change: FactorChange,
  now = new Date(),
): Promise<EnrolmentResult> {
  await assertPasskeyAllowed(db, member.id);
  await assertRoomForFactor(db, member.id);
  const refused = () => new AppError("validation", "The passkey could not be verified. Try again.", { fields: ["response"] });
  let verification;
  try {
    verification = await verifyRegistrationResponse({
      response,
      expectedChallenge: (challenge) =>
        takeChallenge(db, { purpose: "passkey_register", challenge, userId: member.id, sessionId: member.sessionId }),
      expectedOrigin: rp.origin,
      expectedRPID: rp.id,
      requireUserVerification: true,
    });
  } catch {
    throw refused();
  }
  if (!verification.verified) throw refused();
  const { credential } = verification.registrationInfo;
  const result = await db.transaction(async (tx) => {
    const [row] = await tx
      .insert(staffFactors)
      .values({
        userId: member.id,
        kind: "passkey",
        label,
        credentialId: credential.id,
        publicKey: Buffer.from(credential.publicKey).toString("base64url"),
        signCount: credential.counter,
        transports: credential.transports ?? null,
        confirmedAt: now,
        createdAt: now,
      })
      .onConflictDoNothing({ target: staffFactors.credentialId })
      .returning({ id: staffFactors.id });
    if (!row) throw new AppError("conflict", "This passkey is already registered.");
    return finishEnrolment(tx, member, row.id, "passkey", change, now);
  });
  change.notices.after();
  return result;
}

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

export { relyingParty };

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

// ---------------------------------------------------------------------------------------------------------
// Removal

/** Removes one of the member's own factors (the route asks for a step-up first). */
export async function removeFactor(
  db: Database,
  member: Member & { permissions: StaffSession["permissions"] },
  factorId: string,
  { context, notices }: FactorChange,
  now = new Date(),
): Promise<void> {
  await db.transaction(async (tx) => {
    const [factor] = await tx
      .select()
      .from(staffFactors)
      .where(and(eq(staffFactors.id, factorId), eq(staffFactors.userId, member.id)));
    if (!factor) throw new AppError("not_found", "No such second factor.");
    const confirmed = await tx
      .select({ id: staffFactors.id })
      .from(staffFactors)
      .where(and(eq(staffFactors.userId, member.id), isNotNull(staffFactors.confirmedAt)));
    const last = confirmed.length === 1 && factor.confirmedAt !== null;
    if (last && secondFactorRequired(config().signIn.mfaRequired, member)) {
      throw new AppError("conflict", "Your role requires a second factor: add another one before removing your last.");
    }
    await tx.delete(staffFactors).where(eq(staffFactors.id, factor.id));
    // Without any factor left, the recovery codes go too: the next first enrolment issues new ones.
    if (last) await tx.delete(staffRecoveryCodes).where(eq(staffRecoveryCodes.userId, member.id));
    await announceFactorChange(tx, member.id, now);
    await notices.within(tx, { userId: member.id, change: "removed", key: `removed:${factor.id}` });
    await recordEvent(
      {
        actor: context.actor,
        action: "auth.factor_remove",
        target: { type: "staff", id: member.id },
        outcome: "success",
        ip: context.ip,
        details: { kind: factor.kind, label: factor.label, ...(last ? { last: "yes" } : {}) },
        at: now,
      },
      tx,
    );
  });
  notices.after();
  forgetLocally({ userId: member.id });
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
