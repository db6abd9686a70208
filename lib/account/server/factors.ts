import "server-only";

import { randomBytes } from "node:crypto";

import {
  generateRegistrationOptions,
  verifyRegistrationResponse,
  type PublicKeyCredentialCreationOptionsJSON,
  type RegistrationResponseJSON,
} from "@simplewebauthn/server";
import { and, count, eq, isNotNull, isNull, lt } from "drizzle-orm";
import QRCode from "qrcode";

import { recordSuccess } from "@/lib/audit-trail/server/record";
import { secondFactorRequired } from "@/lib/auth/permissions";
import { recoveryCodeHash, sealFactorSecret } from "@/lib/auth/server/factor-secret";
import {
  announceFactorChange,
  consumeTotp,
  memberPasskeys,
  passkeyAllowedFor,
  toDto,
  type FactorChange,
  type FactorDto,
  type Member,
  type Transports,
} from "@/lib/auth/server/factors";
import { forgetLocally } from "@/lib/auth/server/session-invalidation";
import { staffFactors, staffRecoveryCodes, staffUsers } from "@/lib/auth/server/tables";
import { newTotpSecret, totpUri } from "@/lib/auth/server/totp";
import { storeChallenge, takeChallenge, type RelyingParty } from "@/lib/auth/server/webauthn";
import type { StaffSession } from "@/lib/auth/types";
import { config } from "@/lib/config";
import type { Database } from "@/lib/db/client";
import { AppError } from "@/lib/shared/errors";

/*
 * The member's own second factors (docs/security.md#second-factors): adding an authenticator app or a passkey,
 * removing one. The first enrolment makes ten single-use recovery codes, shown once. Checking a factor at
 * sign-in and step-up is the auth layer's (lib/auth/server/factors.ts).
 */

export const RECOVERY_CODE_COUNT = 10;
export const MAX_FACTORS = 10;
const UNCONFIRMED_TTL_MS = 15 * 60_000;
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

export interface EnrolmentResult {
  factor: FactorDto;
  /** Only at the member's first enrolment: shown once, never again. */
  recoveryCodes?: string[];
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
  await recordSuccess(
    context,
    {
      action: "auth.factor_enrol",
      target: { type: "staff", id: member.id },
      details: { kind, ...(recoveryCodes ? { recoveryCodesIssued: recoveryCodes.length } : {}) },
      at: now,
    },
    tx,
  );
  const [row] = await tx.select().from(staffFactors).where(eq(staffFactors.id, factorId));
  forgetLocally({ userId: member.id });
  return { factor: toDto(row!), ...(recoveryCodes ? { recoveryCodes } : {}) };
}

async function assertPasskeyAllowed(db: Database, userId: string): Promise<void> {
  const [row] = await db.select({ ssoOnly: staffUsers.ssoOnly }).from(staffUsers).where(eq(staffUsers.id, userId));
  if (row && !passkeyAllowedFor(row)) {
    throw new AppError("forbidden", "Your account signs in through single sign-on only: it cannot add a passkey.");
  }
}

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
    await recordSuccess(
      context,
      {
        action: "auth.factor_remove",
        target: { type: "staff", id: member.id },
        details: { kind: factor.kind, label: factor.label, ...(last ? { last: "yes" } : {}) },
        at: now,
      },
      tx,
    );
  });
  notices.after();
  forgetLocally({ userId: member.id });
}
