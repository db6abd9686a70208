import "server-only";

import { and, eq, gt, inArray, lt, or, sql } from "drizzle-orm";

import type { Database } from "@/lib/db/client";
import { rateLimits } from "@/lib/db/tables";

/*
 * Counters shared by every instance, kept in the database: one row per key and fixed window, updated
 * with a single upsert so concurrent requests on several instances never lose a count.
 * A "lock" is a row in a reserved window whose expires_at says until when the key is refused.
 */

const LOCK_WINDOW = new Date(0);
// Old windows are swept now and then rather than on every write.
const SWEEP_PROBABILITY = 0.02;

function windowStart(now: Date, windowMs: number): Date {
  return new Date(Math.floor(now.getTime() / windowMs) * windowMs);
}

/** Adds one to the key's current window and returns the new count. */
export async function increment(db: Database, key: string, windowMs: number, now = new Date()): Promise<number> {
  const start = windowStart(now, windowMs);
  const [row] = await db
    .insert(rateLimits)
    .values({ key, windowStart: start, count: 1, expiresAt: new Date(start.getTime() + windowMs) })
    .onConflictDoUpdate({ target: [rateLimits.key, rateLimits.windowStart], set: { count: sql`${rateLimits.count} + 1` } })
    .returning({ count: rateLimits.count });
  if (Math.random() < SWEEP_PROBABILITY) await sweep(db, now);
  return row?.count ?? 1;
}

/** The key's count in its current window (0 when there is none). */
export async function countInWindow(db: Database, key: string, windowMs: number, now = new Date()): Promise<number> {
  const [row] = await db
    .select({ count: rateLimits.count })
    .from(rateLimits)
    .where(and(eq(rateLimits.key, key), eq(rateLimits.windowStart, windowStart(now, windowMs))));
  return row?.count ?? 0;
}

/**
 * Counts one use against a limit: the use is allowed while the window's count stays within `limit`.
 * For per-user quotas such as CPF lookups per minute and per day.
 */
export async function consume(
  db: Database,
  key: string,
  { limit, windowMs }: { limit: number; windowMs: number },
  now = new Date(),
): Promise<{ allowed: boolean; count: number; retryAfterMs: number }> {
  const count = await increment(db, key, windowMs, now);
  const windowEnds = windowStart(now, windowMs).getTime() + windowMs;
  return { allowed: count <= limit, count, retryAfterMs: count <= limit ? 0 : windowEnds - now.getTime() };
}

/**
 * Claims the key's lock until `until` unless a lock is still in force: one upsert, so two claims at once
 * (a double click, two instances) cannot both pass. A refusal says when the lock in force ends.
 */
export async function claimLock(
  db: Database,
  key: string,
  until: Date,
  now = new Date(),
): Promise<{ ok: true } | { ok: false; until: Date }> {
  const claimed = await db
    .insert(rateLimits)
    .values({ key, windowStart: LOCK_WINDOW, count: 1, expiresAt: until })
    .onConflictDoUpdate({
      target: [rateLimits.key, rateLimits.windowStart],
      set: { expiresAt: until, count: sql`${rateLimits.count} + 1` },
      setWhere: sql`${rateLimits.expiresAt} <= ${now.toISOString()}::timestamptz`,
    })
    .returning({ expiresAt: rateLimits.expiresAt });
  if (claimed.length > 0) return { ok: true };
  return { ok: false, until: (await lockedUntil(db, key, now)) ?? until };
}

/** Sets the key's lock to end at `until` exactly (earlier or later), or lifts it with null. */
export async function setLock(db: Database, key: string, until: Date | null): Promise<void> {
  if (until === null) {
    await db.delete(rateLimits).where(and(eq(rateLimits.key, key), eq(rateLimits.windowStart, LOCK_WINDOW)));
    return;
  }
  await db
    .insert(rateLimits)
    .values({ key, windowStart: LOCK_WINDOW, count: 1, expiresAt: until })
    .onConflictDoUpdate({ target: [rateLimits.key, rateLimits.windowStart], set: { expiresAt: until } });
}

/** Refuses the key until `until` (extends an existing lock, never shortens it). */
export async function lock(db: Database, key: string, until: Date): Promise<void> {
  await db
    .insert(rateLimits)
    .values({ key, windowStart: LOCK_WINDOW, count: 1, expiresAt: until })
    .onConflictDoUpdate({
      target: [rateLimits.key, rateLimits.windowStart],
      set: { expiresAt: sql`greatest(${rateLimits.expiresAt}, excluded.expires_at)`, count: sql`${rateLimits.count} + 1` },
    });
}

/** When the key's lock ends, or null when it is not locked. */
export async function lockedUntil(db: Database, key: string, now = new Date()): Promise<Date | null> {
  const [row] = await db
    .select({ expiresAt: rateLimits.expiresAt })
    .from(rateLimits)
    .where(and(eq(rateLimits.key, key), eq(rateLimits.windowStart, LOCK_WINDOW), gt(rateLimits.expiresAt, now)));
  return row?.expiresAt ?? null;
}

/** Forgets every window of the key (not its lock). */
export async function clear(db: Database, key: string): Promise<void> {
  await db.delete(rateLimits).where(and(eq(rateLimits.key, key), gt(rateLimits.windowStart, LOCK_WINDOW)));
}

/**
 * Forgets everything about the given keys and about every key starting with one of the prefixes: their
 * windows and their locks. In one statement, so an admin's unlock is never half done.
 */
export async function clearKeys(db: Database, keys: string[], prefixes: string[] = []): Promise<void> {
  const conditions = [
    ...(keys.length > 0 ? [inArray(rateLimits.key, keys)] : []),
    // starts_with, not LIKE: a key may hold "_" or "%" and must match literally.
    ...prefixes.map((prefix) => sql`starts_with(${rateLimits.key}, ${prefix})`),
  ];
  if (conditions.length > 0) await db.delete(rateLimits).where(or(...conditions));
}

export async function sweep(db: Database, now = new Date()): Promise<void> {
  await db.delete(rateLimits).where(lt(rateLimits.expiresAt, now));
}

/**
 * Adds `amount` to the key's window only if the count stays within `limit`: one conditional upsert, so two
 * instances can never both take the last units. A refusal adds nothing and returns the count as it stands.
 */
export async function consumeUpTo(
  db: Database,
  key: string,
  { amount, limit, start, end }: { amount: number; limit: number; start: Date; end: Date },
): Promise<{ allowed: boolean; count: number }> {
  if (amount <= limit) {
    const [row] = await db
      .insert(rateLimits)
      .values({ key, windowStart: start, count: amount, expiresAt: end })
      .onConflictDoUpdate({
        target: [rateLimits.key, rateLimits.windowStart],
        set: { count: sql`${rateLimits.count} + ${amount}` },
        setWhere: sql`${rateLimits.count} + ${amount} <= ${limit}`,
      })
      .returning({ count: rateLimits.count });
    if (row) return { allowed: true, count: row.count };
  }
  const [current] = await db
    .select({ count: rateLimits.count })
    .from(rateLimits)
    .where(and(eq(rateLimits.key, key), eq(rateLimits.windowStart, start)));
  return { allowed: false, count: current?.count ?? 0 };
}

/** Gives back `amount` taken from the key's window (an action refused further on). */
export async function giveBack(db: Database, key: string, start: Date, amount: number): Promise<void> {
  await db
    .update(rateLimits)
    .set({ count: sql`greatest(${rateLimits.count} - ${amount}, 0)` })
    .where(and(eq(rateLimits.key, key), eq(rateLimits.windowStart, start)));
}

/** The counts of the given keys in the window starting at `start` (keys without a row are left out). */
export async function countsAt(db: Database, keys: string[], start: Date): Promise<Map<string, number>> {
  if (keys.length === 0) return new Map();
  const rows = await db
    .select({ key: rateLimits.key, count: rateLimits.count })
    .from(rateLimits)
    .where(and(inArray(rateLimits.key, keys), eq(rateLimits.windowStart, start)));
  return new Map(rows.map((row) => [row.key, row.count]));
}

/** The counts, in the window starting at `start`, of every key starting with `prefix`. */
export async function countsUnder(db: Database, prefix: string, start: Date): Promise<Array<{ key: string; count: number }>> {
  return db
    .select({ key: rateLimits.key, count: rateLimits.count })
    .from(rateLimits)
    .where(and(sql`starts_with(${rateLimits.key}, ${prefix})`, eq(rateLimits.windowStart, start)))
    .orderBy(rateLimits.key);
}
