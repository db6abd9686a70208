import "server-only";

import { and, eq, isNull, lt, or, sql } from "drizzle-orm";

import type { Database } from "@/lib/db/client";
import { jobLeases } from "@/lib/db/tables";

/*
 * A lease in the database for work one instance does at a time. Taken with one conditional upsert: the
 * row is created, or taken over when the previous holder's lease has expired (a crashed instance cannot
 * block the work for longer than the lease). `minGapMs` also refuses while the last run finished
 * recently, which is how a schedule on every instance still runs the work once per interval.
 */

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
  const rested =
    minGapMs > 0 ? or(isNull(jobLeases.lastFinishedAt), lt(jobLeases.lastFinishedAt, new Date(now.getTime() - minGapMs))) : undefined;
  const rows = await db
    .insert(jobLeases)
    .values({ name, holder, expiresAt })
    .onConflictDoUpdate({
      target: jobLeases.name,
      set: { holder: sql`excluded.holder`, expiresAt: sql`excluded.expires_at` },
      setWhere: rested ? and(free, rested) : free,
    })
    .returning({ name: jobLeases.name });
  return rows.length === 1;
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
