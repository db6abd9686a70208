import "server-only";

import { randomUUID } from "node:crypto";

import { config } from "@/lib/config";
import { getDb } from "@/lib/db/client";
import { leaseDueInMs } from "@/lib/db/lease";
import { log } from "@/lib/log";
import { startJob } from "@/lib/runtime/scheduler";

import { RETENTION_LEASE, runRetention, type RetentionRunReport } from "./pruner";

/*
 * The retention pruner on a schedule. Every instance runs the timer; the lease in the database (lib/db/lease.ts,
 * with RETENTION_RUN_HOURS as its minimum gap) makes one of them actually run per interval.
 */

const INSTANCE = randomUUID();

export async function runScheduledRetention(): Promise<RetentionRunReport> {
  return runRetention(await getDb(), { holder: INSTANCE, minGapMs: config().retention.runHours * 3_600_000 });
}

/**
 * Starts the schedule once per process (instrumentation.ts); RETENTION_RUN_HOURS=0 turns it off. Each instance wakes
 * when the lease says a run is due (lib/runtime/scheduler.ts), at least every 10 minutes; the lease lets one run.
 */
export function startRetentionSchedule(): void {
  const hours = config().retention.runHours;
  if (hours === 0) return;
  startJob({
    name: RETENTION_LEASE,
    maxSleepMs: 10 * 60_000,
    run: async () => {
      const report = await runScheduledRetention();
      if (report.ran) log.info("retention_run", { ...report.counts, failed: report.failed.join(",") });
      return report.ran ? "ran" : "idle";
    },
    nextDueInMs: async () => leaseDueInMs(await getDb(), RETENTION_LEASE, hours * 3_600_000),
  });
}
