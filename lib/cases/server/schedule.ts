import "server-only";

import { randomUUID } from "node:crypto";

import { config } from "@/lib/config";
import { withConnection } from "@/lib/connections/server/bind";
import { liveConnections } from "@/lib/connections/server/store";
import { getDb } from "@/lib/db/client";
import { startLeasedJob } from "@/lib/db/leased-job";
import { log } from "@/lib/log";
import { flushUpstreamCalls, withUpstreamSource } from "@/lib/upstream/call-count";
import { coreClient } from "@/lib/upstream/core";

import { caseSettings } from "./store";
import { SYNC_LEASE, syncReviewCases, type SyncReport } from "./sync";

/*
 * The case sync, on demand (POST /api/cases/sync) and on a schedule. Every instance runs the timer; the
 * lease in the database (lib/db/lease.ts, with the interval as its minimum gap) makes one of them
 * actually run per interval.
 */

const INSTANCE = randomUUID();

/**
 * One run, its upstream calls counted (lib/upstream/call-count.ts) and written when it ends. On
 * demand (an admin's "sync now") it is a full pass of the request's connection; scheduled runs go through every live
 * connection, each under its own key and lease (./sync.ts `syncLeaseOf`), incremental between full passes every
 * CASE_SYNC_FULL_HOURS, and refused while its last run began less than `minGapMs` ago. A connection whose run fails
 * (its key refused, the service unreachable) is logged and the others still run.
 */
export async function runCaseSync(how: { scheduled: false } | { scheduled: true; minGapMs: number }): Promise<SyncReport> {
  const cfg = config();
  const db = await getDb();
  const sync = () =>
    syncReviewCases(db, {
      client: coreClient(),
      settings: caseSettings(),
      perPage: cfg.core.maxPerPage,
      minGapMs: how.scheduled ? how.minGapMs : 0,
      holder: INSTANCE,
      mode: how.scheduled ? "auto" : "full",
      fullEveryMs: cfg.cases.syncFullHours * 3_600_000,
      leaseTtlMs: cfg.cases.syncLeaseSeconds * 1000,
      dateFilter: { format: cfg.core.dateFilterFormat, timeZone: cfg.displayTimeZone },
    });
  try {
    // On demand the calls stay the route's (POST /api/cases/sync), under the connection it was called for.
    if (!how.scheduled) return await sync();
    const reports: SyncReport[] = [];
    for (const connection of await liveConnections(db)) {
      try {
        reports.push(await withConnection(connection, () => withUpstreamSource("job:cases.sync", sync)));
      } catch (error) {
        log.warn("case_sync_failed", { connection: connection.id, error });
      }
    }
    return combined(reports);
  } finally {
    await flushUpstreamCalls(db).catch((error: unknown) => log.warn("upstream_calls_flush_failed", { error }));
  }
}

/** The connections' reports as one: ran when any ran, counts summed, the longest duration. */
function combined(reports: SyncReport[]): SyncReport {
  const ran = reports.filter((report) => report.ran);
  const sum = (key: "pages" | "upstreamCalls" | "seen" | "events" | "opened" | "closed" | "staleChecked") =>
    ran.reduce((total, report) => total + report[key], 0);
  return {
    ran: ran.length > 0,
    mode: ran.some((report) => report.mode === "full") ? "full" : "incremental",
    pages: sum("pages"),
    upstreamCalls: sum("upstreamCalls"),
    seen: sum("seen"),
    events: sum("events"),
    opened: sum("opened"),
    closed: sum("closed"),
    staleChecked: sum("staleChecked"),
    durationMs: Math.max(0, ...reports.map((report) => report.durationMs)),
    connections: ran.length,
  };
}

/**
 * Starts the schedule once per process (instrumentation.ts); CASE_SYNC_INTERVAL_MINUTES=0 turns it off. Each
 * instance wakes when the lease says the next run is due (lib/db/leased-job.ts); the lease lets one run.
 */
export function startCaseSyncSchedule(): void {
  const minutes = config().cases.syncIntervalMinutes;
  if (minutes === 0) return;
  startLeasedJob({
    lease: SYNC_LEASE,
    gapMs: minutes * 60_000,
    maxSleepMs: 60_000,
    run: async ({ minGapMs }) => {
      const report = await runCaseSync({ scheduled: true, minGapMs });
      if (report.ran) log.info("case_sync", { ...report });
      return report.ran ? "ran" : "idle";
    },
  });
}
