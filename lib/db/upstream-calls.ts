import "server-only";

import { and, eq, gte, lt, lte, sql } from "drizzle-orm";

import type { Database } from "@/lib/db/client";
import { upstreamCalls } from "@/lib/db/tables";

/*
 * The service's calls, counted per day, connection (whose key made them: each key has its own quota), source (route
 * or job) and kind (the upstream operation): the provider key's quota as a budget. Counts only, no personal data. Each instance tallies in memory
 * (lib/upstream/call-count.ts) and adds its tally here with one statement, one row per key: `count = count +
 * excluded.count` under the row's lock, so several instances adding to the same key at once sum, never overwrite.
 */

export interface UpstreamCallCount {
  /** The calendar day in the display time zone, YYYY-MM-DD. */
  day: string;
  /** The connection whose key made the calls. */
  connectionId: string;
  source: string;
  kind: string;
  count: number;
}

/** Adds counts (one upsert for all the keys; a key given twice is summed first, as one statement may not touch a row twice). */
export async function addUpstreamCalls(db: Database, counts: UpstreamCallCount[]): Promise<void> {
  const merged = new Map<string, UpstreamCallCount>();
  for (const entry of counts) {
    if (entry.count <= 0) continue;
    const key = JSON.stringify([entry.day, entry.connectionId, entry.source, entry.kind]);
    const known = merged.get(key);
    if (known) known.count += entry.count;
    else merged.set(key, { ...entry });
  }
  if (merged.size === 0) return;
  await db
    .insert(upstreamCalls)
    .values([...merged.values()])
    .onConflictDoUpdate({
      target: [upstreamCalls.day, upstreamCalls.connectionId, upstreamCalls.source, upstreamCalls.kind],
      set: { count: sql`${upstreamCalls.count} + excluded.count` },
    });
}

/** One connection's counts of the days from `fromDay` to `toDay`, both included. */
export async function readUpstreamCalls(db: Database, connectionId: string, fromDay: string, toDay: string): Promise<UpstreamCallCount[]> {
  return db
    .select({
      day: upstreamCalls.day,
      connectionId: upstreamCalls.connectionId,
      source: upstreamCalls.source,
      kind: upstreamCalls.kind,
      count: upstreamCalls.count,
    })
    .from(upstreamCalls)
    .where(and(eq(upstreamCalls.connectionId, connectionId), gte(upstreamCalls.day, fromDay), lte(upstreamCalls.day, toDay)))
    .orderBy(upstreamCalls.day, upstreamCalls.source, upstreamCalls.kind);
}

/** Removes the days before `beforeDay` (the retention pruner); returns the rows removed. */
export async function pruneUpstreamCalls(db: Database, beforeDay: string): Promise<number> {
  const rows = await db.delete(upstreamCalls).where(lt(upstreamCalls.day, beforeDay)).returning({ day: upstreamCalls.day });
  return rows.length;
}
