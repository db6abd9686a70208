import "server-only";

import { randomUUID } from "node:crypto";

import { config } from "@/lib/config";
import { getDb, type Database } from "@/lib/db/client";
import { acquireLease, releaseLease } from "@/lib/db/lease";
import { startLeasedJob } from "@/lib/db/leased-job";

import type { HeadCheckpoint } from "./checkpoint";
import { checkpointAuditHead } from "./head-file";

/*
 * The trail's head signed on a timer (every AUDIT_HEAD_CHECKPOINT_MINUTES), as well as after prunes and
 * `npm run audit:verify`: a head checkpoint in the database and its copy outside it (head-file.ts), so events cut
 * off the end since the last prune or verification still show. Every instance runs the timer; the lease
 * (lib/db/lease.ts, the interval as its minimum gap) makes one of them sign per interval. Nothing is signed while
 * the head has not moved (anchorAuditHead answers the existing checkpoint).
 */

const LEASE = "audit.head_checkpoint";
const LEASE_TTL_MS = 60_000;
const INSTANCE = randomUUID();

/** One run: the head signed and copied, or null when another instance holds the lease or ran lately. */
export async function runAuditHeadCheckpoint(
  db: Database,
  { holder = INSTANCE, minGapMs = 0, now = new Date() }: { holder?: string; minGapMs?: number; now?: Date } = {},
): Promise<HeadCheckpoint | null> {
  if (!(await acquireLease(db, { name: LEASE, holder, ttlMs: LEASE_TTL_MS, minGapMs, now }))) return null;
  let finished: Date | null = null;
  try {
    const head = await checkpointAuditHead(db, { now });
    finished = new Date();
    return head;
  } finally {
    await releaseLease(db, LEASE, holder, finished);
  }
}

/**
 * Starts the schedule once per process (instrumentation.ts); AUDIT_HEAD_CHECKPOINT_MINUTES=0 turns it off. Each
 * instance wakes when the lease says a checkpoint is due (lib/db/leased-job.ts); the lease lets one do it.
 */
export function startAuditHeadSchedule(): void {
  const minutes = config().auditHead.checkpointMinutes;
  if (minutes === 0) return;
  startLeasedJob({
    lease: LEASE,
    gapMs: minutes * 60_000,
    maxSleepMs: 60_000,
    run: async ({ minGapMs }) => ((await runAuditHeadCheckpoint(await getDb(), { minGapMs })) ? "ran" : "idle"),
  });
}
