import "server-only";

import { randomUUID } from "node:crypto";

import { config } from "@/lib/config";
import { getDb } from "@/lib/db/client";
import { startLeasedJob } from "@/lib/db/leased-job";
import { log } from "@/lib/log";

import { RETENTION_LEASE, runRetention, type RetentionRunReport } from "./pruner";

/*
 * The retention pruner on a schedule. Every instance runs the timer; the lease in the database (lib/db/lease.ts,
 * with RETENTION_RUN_HOURS as its minimum gap) makes one of them actually run per interval.
 */

const INSTANCE = randomUUID();

export async function runScheduledRetention(minGapMs: number): Promise<RetentionRunReport> {
  return runRetention(await getDb(), { holder: INSTANCE, minGapMs });
}

/**
 * Starts the schedule once per process (instrumentation.ts); RETENTION_RUN_HOURS=0 turns it off. Each instance wakes
 * when the lease says a run is due (lib/db/leased-job.ts), at least every 10 minutes; the lease lets one run.
 */
export function startRetentionSchedule(): void {
  const hours = config().retention.runHours;
  if (hours === 0) return;
  startLeasedJob({
    lease: RETENTION_LEASE,
    gapMs: hours * 3_600_000,
    maxSleepMs: 10 * 60_000,
    run: async ({ minGapMs }) => {
      const report = await runScheduledRetention(minGapMs);
      if (report.ran) log.info("retention_run", { ...report.counts, failed: report.failed.join(",") });
      return report.ran ? "ran" : "idle";
    },
  });
}
