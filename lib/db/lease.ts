import "server-only";

import { and, eq, lt, lte, or, sql } from "drizzle-orm";

import type { Database } from "@/lib/db/client";
import { jobLeases } from "@/lib/db/tables";

/*
 * A lease in the database for work one instance does at a time. Taken with one conditional upsert: the
 * row is created, or taken over when the previous holder's lease has expired (a crashed instance cannot
 * block the work for longer than the lease). `minGapMs` also refuses while the last run started less than
 * that long ago, which is how a schedule on every instance still runs the work once per interval: measured from
 * start to start, with BOUNDARY_MS of slack, so a look that wakes at the due time (lib/runtime/scheduler.ts) is
 * never refused for a few milliseconds and the work keeps its cadence. `leaseDueInMs` says when the next run is due.
 *
 * Every lease this process holds is known here (`held`, on globalThis), so a graceful shutdown can hand them back at once
 * (`releaseHeldLeases`) rather than leave another instance waiting for them to expire.
 */

/** How early a look may come and still count as on time (timers and clocks are not exact). */
export const BOUNDARY_MS = 1_000;

const held = ((globalThis as typeof globalThis & { __kycHeldLeases?: Map<string, string> }).__kycHeldLeases ??= new Map());

export interface LeaseOptions {
  name: string;
  holder: string;
  ttlMs: number;
  minGapMs?: number;
  now?: Date;
}

export async function acquireLease(db: Database, { name, holder, ttlMs, minGapMs = 0, now = new Date() }: LeaseOptions): Promise<boolean> {
  const expiresAt = new Date(now.getTime() + ttlMs);
  const free = or(lt(jobLeases.expiresAt, now), eq(jobLeases.holder, holder));
  const lastStart = sql`coalesce(${jobLeases.lastStartedAt}, ${jobLeases.lastFinishedAt})`;
  const rested = minGapMs > 0 ? or(sql`${lastStart} is null`, lte(lastStart, new Date(now.getTime() - minGapMs + BOUNDARY_MS))) : undefined;
  const rows = await db
    .insert(jobLeases)
    .values({ name, holder, expiresAt, lastStartedAt: now })
    .onConflictDoUpdate({
      target: jobLeases.name,
      set: { holder: sql`excluded.holder`, expiresAt: sql`excluded.expires_at`, lastStartedAt: sql`excluded.last_started_at` },
      setWhere: rested ? and(free, rested) : free,
    })
    .returning({ name: jobLeases.name });
  if (rows.length === 1) held.set(name, holder);
  return rows.length === 1;
}

/**
 * Milliseconds until the lease may be taken for a run `minGapMs` after the last start (0: now), or when its holder's
 * lease expires if that is later. 0 for a lease never taken.
 */
export async function leaseDueInMs(db: Database, name: string, minGapMs: number, now = new Date()): Promise<number> {
  const [row] = await db
    .select({
      holder: jobLeases.holder,
      expiresAt: jobLeases.expiresAt,
      lastStartedAt: jobLeases.lastStartedAt,
      lastFinishedAt: jobLeases.lastFinishedAt,
    })
    .from(jobLeases)
    .where(eq(jobLeases.name, name));
  if (!row) return 0;
  const lastStart = row.lastStartedAt ?? row.lastFinishedAt;
  const due = Math.max(lastStart ? lastStart.getTime() + minGapMs : 0, row.holder ? row.expiresAt.getTime() : 0);
  return Math.max(0, due - now.getTime());
}

/** Extends a held lease; false when it was lost (expired and taken over). */
export async function renewLease(db: Database, { name, holder, ttlMs, now = new Date() }: LeaseOptions): Promise<boolean> {
  const rows = await db
    .update(jobLeases)
    .set({ expiresAt: new Date(now.getTime() + ttlMs) })
    .where(and(eq(jobLeases.name, name), eq(jobLeases.holder, holder)))
    .returning({ name: jobLeases.name });
  return rows.length === 1;
}

export async function releaseLease(db: Database, name: string, holder: string, finishedAt: Date | null): Promise<void> {
  if (held.get(name) === holder) held.delete(name);
  await db
    .update(jobLeases)
    .set({ holder: null, expiresAt: new Date(0), ...(finishedAt ? { lastFinishedAt: finishedAt } : {}) })
    .where(and(eq(jobLeases.name, name), eq(jobLeases.holder, holder)));
}

/** What the job kept from its last run (`job_leases.state`): an empty object before the first. */
export async function leaseState(db: Database, name: string): Promise<Record<string, unknown>> {
  const [row] = await db.select({ state: jobLeases.state }).from(jobLeases).where(eq(jobLeases.name, name));
  return row?.state ?? {};
}

/** Keeps the job's state for its next run; only the holder writes it (false when the lease was lost). */
export async function saveLeaseState(db: Database, name: string, holder: string, state: Record<string, unknown>): Promise<boolean> {
  const rows = await db
    .update(jobLeases)
    .set({ state })
    .where(and(eq(jobLeases.name, name), eq(jobLeases.holder, holder)))
    .returning({ name: jobLeases.name });
  return rows.length === 1;
}

/**
 * Hands back every lease this process holds (a graceful shutdown, after its jobs stopped): each expires now, so
 * another instance's next look takes the work over instead of waiting out the lease. A run that did not finish
 * does not count as finished: the gap stays measured from its start.
 */
export async function releaseHeldLeases(db: Database): Promise<string[]> {
  const names = [...held.keys()];
  for (const name of names) await releaseLease(db, name, held.get(name)!, null);
  return names;
}
