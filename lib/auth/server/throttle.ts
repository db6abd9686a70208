import "server-only";

import { createHmac } from "node:crypto";

import { config } from "@/lib/config";
import type { Database } from "@/lib/db/client";
import { clearKeys, countInWindow, increment, lock, lockedUntil, locksUnder } from "@/lib/db/rate-limit";

/*
 * Sign-in throttling, built so it cannot be turned against staff (docs/security.md "Lockout policy"):
 * - an account AND address pair is locked after a few failures: whoever guesses locks only themselves
 *   out of that account, never the account's owner signing in from elsewhere;
 * - an address trying many accounts (spraying) is locked on its own, with a wider budget, since an
 *   office behind one NAT address shares it;
 * - the account itself is never locked, only slowed down everywhere: each failure in the window, from
 *   any address, lengthens the wait before the next password is checked, up to a ceiling;
 * - an admin can lift an account's locks and slow-down at once (unlockSignIn), recorded on the trail.
 * The account is the email typed, known or not, under a keyed hash: a lock says nothing about which
 * accounts exist, and the text (sometimes a password typed into the wrong box) is never stored.
 * Counters live in the database, so every instance sees the same counts.
 */

export const FAILURE_WINDOW_MS = 15 * 60_000;
export const LOCK_MS = 15 * 60_000;
export const PAIR_FAILURE_LIMIT = 5;
export const ADDRESS_FAILURE_LIMIT = 20;
export const MAX_SLOWDOWN_MS = 8000;

const accountHash = (email: string) =>
  createHmac("sha256", config().secrets.auditHash).update(`sign-in-account:${email}`).digest("hex").slice(0, 40);
const accountKey = (email: string) => `sign-in:account:${accountHash(email)}`;
const pairPrefix = (email: string) => `sign-in:pair:${accountHash(email)}:`;
const pairKey = (email: string, address: string) => `${pairPrefix(email)}${address}`;
const addressKey = (address: string) => `sign-in:address:${address}`;
const lockKey = (key: string) => `lock:${key}`;

/**
 * Extra wait before checking a password: none for the first failures, then doubling up to the ceiling.
 * The account's count comes from every address; the address's from every account.
 */
export function slowdownMs(accountFailures: number, addressFailures: number): number {
  const step = (failures: number, freeAttempts: number) =>
    failures < freeAttempts ? 0 : Math.min(MAX_SLOWDOWN_MS, 500 * 2 ** (failures - freeAttempts));
  return Math.max(step(accountFailures, 2), step(addressFailures, 10));
}

export type ThrottleGate = { allowed: true; delayMs: number } | { allowed: false; retryAfterMs: number };

export async function checkSignInThrottle(
  db: Database,
  { email, address }: { email: string; address: string },
  now = new Date(),
): Promise<ThrottleGate> {
  const locks = await Promise.all([pairKey(email, address), addressKey(address)].map((key) => lockedUntil(db, lockKey(key), now)));
  const until = Math.max(0, ...locks.map((date) => date?.getTime() ?? 0));
  if (until > now.getTime()) return { allowed: false, retryAfterMs: until - now.getTime() };
  const [accountFailures, addressFailures] = await Promise.all(
    [accountKey(email), addressKey(address)].map((key) => countInWindow(db, key, FAILURE_WINDOW_MS, now)),
  );
  return { allowed: true, delayMs: slowdownMs(accountFailures ?? 0, addressFailures ?? 0) };
}

export type SignInLockScope = "account_address" | "address";

/**
 * Counts a failed attempt. Returns the locks it set (for the trail) and how long this address is now
 * refused for (0 if not).
 */
export async function recordSignInFailure(
  db: Database,
  { email, address }: { email: string; address: string },
  now = new Date(),
): Promise<{ lockedForMs: number; locks: SignInLockScope[] }> {
  await increment(db, accountKey(email), FAILURE_WINDOW_MS, now);
  const limits: Array<[SignInLockScope, string, number]> = [
    ["account_address", pairKey(email, address), PAIR_FAILURE_LIMIT],
    ["address", addressKey(address), ADDRESS_FAILURE_LIMIT],
  ];
  const locks: SignInLockScope[] = [];
  for (const [scope, key, limit] of limits) {
    if ((await increment(db, key, FAILURE_WINDOW_MS, now)) >= limit) {
      await lock(db, lockKey(key), new Date(now.getTime() + LOCK_MS));
      locks.push(scope);
    }
  }
  return { lockedForMs: locks.length > 0 ? LOCK_MS : 0, locks };
}

/** After a successful sign-in the account and this address's attempts at it start afresh; the address keeps its count. */
export async function clearAccountFailures(db: Database, email: string, address: string): Promise<void> {
  await clearKeys(db, [accountKey(email), pairKey(email, address)]);
}

export interface SignInBlock {
  /** When the last of its per-address locks ends, or null when none is in force. */
  lockedUntil: Date | null;
  /** Locked addresses (an admin sees where the guessing came from). */
  lockedAddresses: string[];
  /** Failures in the current window, from anywhere: what slows the account down. */
  recentFailures: number;
}

/** What currently holds an account back, for the staff page. */
export async function signInBlock(db: Database, email: string, now = new Date()): Promise<SignInBlock> {
  const [locks, recentFailures] = await Promise.all([
    locksUnder(db, lockKey(pairPrefix(email)), now),
    countInWindow(db, accountKey(email), FAILURE_WINDOW_MS, now),
  ]);
  const latest = Math.max(0, ...locks.map((entry) => entry.until.getTime()));
  return {
    lockedUntil: latest > 0 ? new Date(latest) : null,
    lockedAddresses: locks.map((entry) => entry.key.slice(lockKey(pairPrefix(email)).length)),
    recentFailures,
  };
}

/** Lifts every per-address lock of the account and its slow-down (an admin's unlock). */
export async function unlockSignIn(db: Database, email: string): Promise<void> {
  await clearKeys(db, [accountKey(email)], [pairPrefix(email), lockKey(pairPrefix(email))]);
}
