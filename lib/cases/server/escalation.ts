import "server-only";

import { randomUUID } from "node:crypto";

import { and, asc, eq, isNull, lt } from "drizzle-orm";

import { recordEvent } from "@/lib/audit-trail/server";
import { caseEntries, cases } from "@/lib/cases/server/tables";
import { getDb, type Database } from "@/lib/db/client";
import { acquireLease, releaseLease } from "@/lib/db/lease";
import { startLeasedJob } from "@/lib/db/leased-job";
import { log } from "@/lib/log";
import { metrics } from "@/lib/metrics/registry";
import { kickOutbox } from "@/lib/notifications/server/outbox";

import { sendOverdueDigests, sweepHandled } from "./overdue-digest";

/*
 * SLA escalation: every minute, one instance (a database lease, like the case sync) finds open cases past
 * their due time that were not escalated yet. Each is escalated by one conditional UPDATE (`escalated_at is
 * null`), so it happens once per case even if two runs meet: the winner writes "escalated" (reason overdue) on
 * its timeline and records the system action `case.escalate`, all in one transaction (the queue's priority weighs
 * the case as overdue by its due time: lib/cases/priority.ts). Nobody is told case by case (67 alerts on a first
 * start): the same run then makes the period's digests, one per member concerned, and marks handled what was
 * handled meanwhile (./overdue-digest.ts).
 */

export const ESCALATION_LEASE = "cases.escalation";
const LEASE_TTL_MS = 60_000;
const BATCH = 100;

export interface EscalationReport {
  ran: boolean;
  escalated: string[];
  /** Members who got a new digest, or whose period's digest grew. */
  digests: number;
}

/** Escalates one case if nobody did yet; answers whether this call did. */
export async function escalateCase(db: Database, caseId: string, now = new Date()): Promise<boolean> {
  const done = await db.transaction(async (tx) => {
    const [row] = await tx
      .update(cases)
      .set({ escalatedAt: now, updatedAt: now })
      .where(and(eq(cases.id, caseId), eq(cases.status, "open"), isNull(cases.escalatedAt), lt(cases.dueAt, now)))
      .returning({ id: cases.id, publicId: cases.publicId, queueId: cases.queueId, dueAt: cases.dueAt });
    if (!row) return false;
    await tx
      .insert(caseEntries)
      .values({ caseId: row.id, at: now, kind: "escalated", details: { reason: "overdue", dueAt: row.dueAt.toISOString() } });
    await recordEvent(
      {
        actor: null,
        action: "case.escalate",
        target: { type: "verification", id: row.publicId },
        outcome: "success",
        details: { reason: "overdue" },
      },
      tx as unknown as Database,
    );
    return true;
  });
  return done;
}

export async function escalateOverdueCases(
  db: Database,
  { holder, now = new Date(), minGapMs = 0 }: { holder: string; now?: Date; minGapMs?: number },
): Promise<EscalationReport> {
  if (!(await acquireLease(db, { name: ESCALATION_LEASE, holder, ttlMs: LEASE_TTL_MS, minGapMs, now })))
    return { ran: false, escalated: [], digests: 0 };
  const escalated: string[] = [];
  let digests = 0;
  try {
    const due = await db
      .select({ id: cases.id, publicId: cases.publicId })
      .from(cases)
      .where(and(eq(cases.status, "open"), isNull(cases.escalatedAt), lt(cases.dueAt, now)))
      .orderBy(asc(cases.dueAt))
      .limit(BATCH);
    for (const item of due) {
      if (await escalateCase(db, item.id, now)) escalated.push(item.publicId);
    }
    digests = await sendOverdueDigests(db, now);
    await sweepHandled(db, now);
  } finally {
    await releaseLease(db, ESCALATION_LEASE, holder, new Date());
  }
  if (digests) void kickOutbox();
  return { ran: true, escalated, digests };
}

const INSTANCE = randomUUID();
const EVERY_MS = 60_000;

/**
 * Every minute (instrumentation.ts): each instance wakes when the lease says the next run is due
 * (lib/db/leased-job.ts), and the lease's gap lets one of them run per minute.
 */
export function startEscalationSchedule(): void {
  startLeasedJob({
    lease: ESCALATION_LEASE,
    gapMs: EVERY_MS,
    maxSleepMs: EVERY_MS,
    run: async ({ minGapMs }) => {
      const report = await escalateOverdueCases(await getDb(), { holder: INSTANCE, minGapMs });
      metrics().caseEscalations.inc(report.escalated.length);
      if (report.escalated.length || report.digests)
        log.info("case_escalation", { escalated: report.escalated.length, digests: report.digests });
      return report.ran ? "ran" : "idle";
    },
  });
}
