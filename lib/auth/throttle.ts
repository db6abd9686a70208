import "server-only";

import { createHmac } from "node:crypto";

import { config } from "@/lib/config";
import type { Database } from "@/lib/db/client";
import { clear, countInWindow, increment, lock, lockedUntil } from "@/lib/rate-limit";

/*
 * Sign-in throttling, per account (the email typed, known or not, so a lock says nothing about which
 * accounts exist) and per address. Failures first slow the answer down, then lock the key for a while;
 * while locked, even the right password is refused. Counters live in the database, so every instance
 * sees the same counts.
 */

export const FAILURE_WINDOW_MS = 15 * 60_000;
export const LOCK_MS = 15 * 60_000;
export const ACCOUNT_FAILURE_LIMIT = 5;
// An office behind one NAT address shares this budget, so it is wider than the per-account one.
export const ADDRESS_FAILURE_LIMIT = 20;

// Keyed hash of what was typed, never the text: it is sometimes a password typed into the email box.
const accountKey = (email: string) =>
  `sign-in:account:${createHmac("sha256", config().secrets.auditHash).update(`sign-in-account:${email}`).digest("hex").slice(0, 40)}`;
const addressKey = (address: string) => `sign-in:address:${address}`;
const lockKey = (key: string) => `lock:${key}`;

/** Extra wait before checking a password after earlier failures: none, then doubling up to 4 s. */
export function slowdownMs(accountFailures: number, addressFailures: number): number {
  const step = (failures: number, freeAttempts: number) =>
    failures < freeAttempts ? 0 : Math.min(4000, 500 * 2 ** (failures - freeAttempts));
  return Math.max(step(accountFailures, 2), step(addressFailures, 10));
}

export type ThrottleGate = { allowed: true; delayMs: number } | { allowed: false; retryAfterMs: number };

export async function checkSignInThrottle(
  db: Database,
  { email, address }: { email: string; address: string },
  now = new Date(),
): Promise<ThrottleGate> {
  const keys = [accountKey(email), addressKey(address)];
  const locks = await Promise.all(keys.map((key) => lockedUntil(db, lockKey(key), now)));
  const until = Math.max(0, ...locks.map((date) => date?.getTime() ?? 0));
  if (until > now.getTime()) return { allowed: false, retryAfterMs: until - now.getTime() };
  const [accountFailures, addressFailures] = await Promise.all(keys.map((key) => countInWindow(db, key, FAILURE_WINDOW_MS, now)));
  return { allowed: true, delayMs: slowdownMs(accountFailures ?? 0, addressFailures ?? 0) };
}

/** Counts a failed attempt; returns how long the caller is now locked out for (0 if not). */
export async function recordSignInFailure(
  db: Database,
  { email, address }: { email: string; address: string },
  now = new Date(),
): Promise<{ lockedForMs: number }> {
  const limits: Array<[string, number]> = [
    [accountKey(email), ACCOUNT_FAILURE_LIMIT],
    [addressKey(address), ADDRESS_FAILURE_LIMIT],
  ];
  let lockedForMs = 0;
  for (const [key, limit] of limits) {
    const failures = await increment(db, key, FAILURE_WINDOW_MS, now);
    if (failures >= limit) {
      await lock(db, lockKey(key), new Date(now.getTime() + LOCK_MS));
      lockedForMs = LOCK_MS;
    }
  }
  return { lockedForMs };
}

/** After a successful sign-in the account starts afresh; the address keeps its count. */
export async function clearAccountFailures(db: Database, email: string): Promise<void> {
  await clear(db, accountKey(email));
}
