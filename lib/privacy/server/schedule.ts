import "server-only";

import { randomUUID } from "node:crypto";

import { config } from "@/lib/config";
import { getDb } from "@/lib/db/client";
import { log } from "@/lib/log";

import { runRetention, type RetentionRunReport } from "./pruner";

/*
 * The retention pruner on a schedule. Every instance runs the timer; the lease in the database (lib/db/lease.ts,
 * with RETENTION_RUN_HOURS as its minimum gap) makes one of them actually run per interval.
 */

const INSTANCE = randomUUID();

export async function runScheduledRetention(): Promise<RetentionRunReport> {
  return runRetention(await getDb(), { holder: INSTANCE, minGapMs: config().retention.runHours * 3_600_000 });
}

const globalForSchedule = globalThis as typeof globalThis & { __kycRetention?: NodeJS.Timeout };

/** Starts the schedule once per process (instrumentation.ts); RETENTION_RUN_HOURS=0 turns it off. */
export function startRetentionSchedule(): void {
  if (config().retention.runHours === 0 || globalForSchedule.__kycRetention) return;
  // Checked every 10 minutes (one conditional upsert); the lease's gap decides whether a run is due.
  const tick = () =>
    runScheduledRetention()
      .then((report) => report.ran && log.info("retention_run", { ...report.counts, failed: report.failed.join(",") }))
      .catch((error: unknown) => log.warn("retention_run_failed", { error }));
  globalForSchedule.__kycRetention = setInterval(tick, 10 * 60_000);
  globalForSchedule.__kycRetention.unref();
}
