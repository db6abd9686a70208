import "server-only";

import { randomBytes } from "node:crypto";

import { and, count, eq, gt, lt } from "drizzle-orm";

import { config } from "@/lib/config";
import type { Database } from "@/lib/db/client";
import { AppError } from "@/lib/shared/errors";

import { authChallenges } from "./tables";

/*
 * The WebAuthn relying party (this dashboard) and its challenges. A challenge is stored when the browser is
 * given its options and taken (deleted, in one statement) when the answer comes back: it works once, on any
 * instance, for five minutes, and only for the purpose and member it was made for.
 */

export const CHALLENGE_TTL_MS = 5 * 60_000;
export const RP_NAME = "KYC Back Office";

export interface RelyingParty {
  id: string;
  name: string;
  origin: string;
}

/**
 * This dashboard as the relying party: its public address (NEXTAUTH_URL) when configured, which production
 * needs, else the address the request came to (the embedded sandbox, tests).
 */
export function relyingParty(request: Request | { host: string }): RelyingParty {
  const fallback = request instanceof Request ? request.url : `http://${request.host}`;
  const origin = new URL(config().publicUrl ?? fallback).origin;
  return { id: new URL(origin).hostname, name: RP_NAME, origin };
}

export type ChallengePurpose = (typeof authChallenges.$inferInsert)["purpose"];

export async function storeChallenge(
  db: Database,
  {
    purpose,
    challenge,
    userId = null,
    sessionId = null,
    cap,
  }: {
    purpose: ChallengePurpose;
    challenge: string;
    userId?: string | null;
    sessionId?: string | null;
    /** At most this many of the purpose's challenges outstanding at once, else 429 (and nothing stored). */
    cap?: number;
  },
  now = new Date(),
): Promise<void> {
  await db.delete(authChallenges).where(lt(authChallenges.expiresAt, now));
  if (cap !== undefined) {
    const [row] = await db.select({ n: count() }).from(authChallenges).where(eq(authChallenges.purpose, purpose));
    if ((row?.n ?? 0) >= cap) {
      throw new AppError("rate_limited", "Too many sign-ins are under way. Try again in a few minutes.", {
        retryAfterSeconds: CHALLENGE_TTL_MS / 1000,
      });
    }
  }
  await db.insert(authChallenges).values({
    id: randomBytes(16).toString("base64url"),
    purpose,
    challenge,
    userId,
    sessionId,
    expiresAt: new Date(now.getTime() + CHALLENGE_TTL_MS),
  });
}

/**
 * Takes the challenge the browser signed, if it was made for this purpose (and member and session, when given)
 * and has not expired or been used: true exactly once.
 */
export async function takeChallenge(
  db: Database,
  { purpose, challenge, userId, sessionId }: { purpose: ChallengePurpose; challenge: string; userId?: string; sessionId?: string },
  now = new Date(),
): Promise<boolean> {
  const taken = await db
    .delete(authChallenges)
    .where(
      and(
        eq(authChallenges.purpose, purpose),
        eq(authChallenges.challenge, challenge),
        gt(authChallenges.expiresAt, now),
        ...(userId ? [eq(authChallenges.userId, userId)] : []),
        ...(sessionId ? [eq(authChallenges.sessionId, sessionId)] : []),
      ),
    )
    .returning({ id: authChallenges.id });
  return taken.length > 0;
}
