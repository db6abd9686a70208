import "server-only";

import { AsyncLocalStorage } from "node:async_hooks";

import { config } from "@/lib/config";
import { getDb, type Database } from "@/lib/db/client";
import { addUpstreamCalls, type UpstreamCallCount } from "@/lib/db/upstream-calls";
import { startJob } from "@/lib/runtime/scheduler";
import { currentConnectionId } from "@/lib/upstream/account";

/*
 * Every call to the service counted per day, connection, source and kind: each connection's key's quota as a budget.
 *
 * - The source is what made the call: the dashboard route ("GET /api/verifications/[publicId]", set by the route
 *   kit, lib/api/route.ts), a page's server render ("page /verifications"), or a job ("job:cases.sync"). It
 *   travels with the work in an AsyncLocalStorage, so the clients need no extra argument and a call made deep
 *   inside a feature still names the route that caused it; a call outside any is "unattributed".
 * - The connection is the one the work speaks as (lib/upstream/account.ts): its key is the one the call spends.
 * - The kind is the upstream operation (`core.list_verifications`, `partners.login`), named by the client.
 * - Each HTTP attempt counts (a retried read is two calls against the quota).
 * - The hot path only adds to a map in memory; the tally is written every FLUSH_MS by one upsert per key
 *   (lib/db/upstream-calls.ts), and by jobs, the bench and a graceful shutdown when they end (`flushUpstreamCalls`). A failed write
 *   puts the counts back for the next flush. A crash loses at most the last few seconds of counts.
 */

export const UNATTRIBUTED = "unattributed";
const FLUSH_MS = 5_000;

const sources = new AsyncLocalStorage<string>();
const meters = new AsyncLocalStorage<{ calls: number }>();

/** Runs `work` with its upstream calls counted under `source` (a route, a page or a job). */
export function withUpstreamSource<T>(source: string, work: () => T): T {
  return sources.run(source, work);
}

/** The source the current work's calls are counted under. */
export function upstreamSource(): string {
  return sources.getStore() ?? UNATTRIBUTED;
}

// On globalThis: Next bundles route handlers, pages and instrumentation separately, and they must share one tally.
const shared = globalThis as typeof globalThis & {
  __kycUpstreamTally?: Map<string, UpstreamCallCount>;
  __kycUpstreamDayFormat?: { timeZone: string; format: Intl.DateTimeFormat };
};

function tally(): Map<string, UpstreamCallCount> {
  return (shared.__kycUpstreamTally ??= new Map());
}

/** Today in the display time zone (YYYY-MM-DD), the day admins read the counts by. */
function today(now: Date): string {
  let timeZone = "UTC";
  try {
    timeZone = config().displayTimeZone;
  } catch {
    // A client built without a configuration (a unit test): the counts are only in memory anyway.
  }
  if (shared.__kycUpstreamDayFormat?.timeZone !== timeZone) {
    shared.__kycUpstreamDayFormat = { timeZone, format: new Intl.DateTimeFormat("en-CA", { timeZone }) };
  }
  return shared.__kycUpstreamDayFormat.format.format(now);
}

const keyOf = (entry: Omit<UpstreamCallCount, "count">) =>
  `${entry.day}\u0000${entry.connectionId}\u0000${entry.source}\u0000${entry.kind}`;

/**
 * Runs `work` and says how many upstream calls (HTTP attempts, retries and logins included) it made, whether it
 * succeeded or threw: what a job spending a budget of calls counts against it (lib/monitoring).
 */
export async function meterUpstreamCalls<T>(
  work: () => Promise<T>,
): Promise<{ calls: number; result: T } | { calls: number; error: unknown }> {
  const meter = { calls: 0 };
  try {
    const result = await meters.run(meter, work);
    return { calls: meter.calls, result };
  } catch (error) {
    return { calls: meter.calls, error };
  }
}

/** Counts one call of `kind` under the current connection and source. Memory only: never waits, never fails the call. */
export function countUpstreamCall(kind: string, now: Date = new Date()): void {
  const meter = meters.getStore();
  if (meter) meter.calls += 1;
  const call = { day: today(now), connectionId: currentConnectionId(), source: upstreamSource(), kind };
  const key = keyOf(call);
  const entry = tally().get(key);
  if (entry) entry.count += 1;
  else tally().set(key, { ...call, count: 1 });
}

/** The counts this instance has not written yet. */
export function pendingUpstreamCalls(): UpstreamCallCount[] {
  return [...tally().values()].map((entry) => ({ ...entry }));
}

/**
 * Writes the tally and empties it: one upsert per key. Concurrent flushes each take what was there when they
 * started, so no count is written twice; a failure puts its counts back.
 */
export async function flushUpstreamCalls(db?: Database): Promise<number> {
  const taken = [...tally().values()];
  if (taken.length === 0) return 0;
  tally().clear();
  try {
    await addUpstreamCalls(db ?? (await getDb()), taken);
  } catch (error) {
    for (const entry of taken) {
      const key = keyOf(entry);
      const known = tally().get(key);
      if (known) known.count += entry.count;
      else tally().set(key, entry);
    }
    throw error;
  }
  return taken.reduce((sum, entry) => sum + entry.count, 0);
}

/**
 * Writes the tally every FLUSH_MS, once per process (instrumentation.ts; a job of lib/runtime/scheduler.ts, so a
 * failed write is logged and counted as the job's, and stopping the jobs stops it before the shutdown's last flush).
 */
export function startUpstreamCallFlusher(): void {
  startJob({
    name: "upstream_calls.flush",
    firstLookMs: FLUSH_MS,
    maxSleepMs: FLUSH_MS,
    run: async () => ((await flushUpstreamCalls()) > 0 ? "ran" : "idle"),
  });
}
