import "server-only";

import { getDb } from "@/lib/db/client";
import { leaseDueInMs } from "@/lib/db/lease";
import { startJob, type JobOutcome } from "@/lib/runtime/scheduler";

/*
 * A background job run by one instance per interval: every instance's timer (lib/runtime/scheduler.ts) wakes when
 * the job's lease (./lease.ts) says the next run is due, and the run asks the lease with the same interval as its
 * minimum gap, so the two can never disagree. The job states its interval once, here; the lease's name is also the
 * job's name in logs and metrics.
 */

export interface LeasedJobSpec {
  /** The lease's name (`job_leases.name`), and the job's in logs and metrics. */
  lease: string;
  /** The interval: the least time between two runs' starts, across every instance. */
  gapMs: number;
  /** The longest sleep between two looks (and the retry delay after a failed one). */
  maxSleepMs: number;
  /** Delay of the first look after start-up; default: at once. */
  firstLookMs?: number;
  /**
   * One look: the run takes the lease with `minGapMs` as its minimum gap (the interval), and answers "ran" when
   * it did, "idle" when the lease was refused (another instance has it, or ran lately).
   */
  run: (look: { first: boolean; minGapMs: number }) => Promise<JobOutcome>;
}

/** Starts the job's timer once per process (instrumentation.ts, through the job's own `start…`). */
export function startLeasedJob({ lease, gapMs, maxSleepMs, firstLookMs, run }: LeasedJobSpec): void {
  startJob({
    name: lease,
    maxSleepMs,
    firstLookMs,
    run: ({ first }) => run({ first, minGapMs: gapMs }),
    nextDueInMs: async () => leaseDueInMs(await getDb(), lease, gapMs),
  });
}
