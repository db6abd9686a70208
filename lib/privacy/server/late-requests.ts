import "server-only";

import { randomUUID } from "node:crypto";

import { and, eq, isNull } from "drizzle-orm";

import { recordEvent } from "@/lib/audit-trail/server";
import { getDb, type Database } from "@/lib/db/client";
import { acquireLease, releaseLease } from "@/lib/db/lease";
import { startLeasedJob } from "@/lib/db/leased-job";
import { log } from "@/lib/log";
import { membersHolding, notify } from "@/lib/notifications/server/notify";
import { kickOutbox } from "@/lib/notifications/server/outbox";
import { daysLeft } from "@/lib/privacy/requests";

import { lateUntold, requestEvent } from "./requests";
import { privacyRequests } from "./tables";

/*
 * Late titular requests told to the privacy officers (the active members holding `privacy.requests`), once per request:
 * every 15 minutes one instance (under the lease) looks at the open requests past their due time not told yet, and
 * for each claims the request's `late_notified_at` with one conditional update (`… where late_notified_at is null`)
 * and, in the same transaction, makes the notifications (the bell, email and chat where configured; their own unique
 * key, the request's id, holds too) and records `privacy.request.late`. A second look, or a second instance that got
 * past the lease, finds the claim taken and tells nobody.
 */

export const LATE_REQUESTS_LEASE = "privacy.late_requests";
const LEASE_TTL_MS = 5 * 60_000;
const EVERY_MS = 15 * 60_000;

export interface LateRequestsReport {
  ran: boolean;
  /** The requests found late in this run and how many officers each was told to. */
  told: Array<{ requestId: string; members: number }>;
}

export async function notifyLateRequests(
  db: Database,
  { holder, now = new Date(), minGapMs = 0 }: { holder: string; now?: Date; minGapMs?: number },
): Promise<LateRequestsReport> {
  if (!(await acquireLease(db, { name: LATE_REQUESTS_LEASE, holder, ttlMs: LEASE_TTL_MS, minGapMs, now }))) return { ran: false, told: [] };
  const told: LateRequestsReport["told"] = [];
  try {
    const late = await lateUntold(db, now);
    const officers = late.length ? (await membersHolding(db, "privacy.requests")).map((member) => member.id) : [];
    for (const request of late) {
      const members = await db.transaction(async (tx) => {
        const [claimed] = await tx
          .update(privacyRequests)
          .set({ lateNotifiedAt: now })
          .where(and(eq(privacyRequests.id, request.id), eq(privacyRequests.state, "open"), isNull(privacyRequests.lateNotifiedAt)))
          .returning({ id: privacyRequests.id });
        if (!claimed) return null;
        const { created } = await notify(tx, {
          userIds: officers,
          kind: "privacy_request_late",
          casePublicId: "",
          link: "/admin/privacy",
          dedupeKey: `request:${request.id}`,
        });
        await recordEvent(
          {
            ...requestEvent({ actor: null, ip: null }, request),
            action: "privacy.request.late",
            outcome: "success",
            details: { kind: request.kind, daysLate: -daysLeft(request.dueAt, now), told: created },
            at: now,
          },
          tx,
        );
        return created;
      });
      if (members === null) continue;
      log.warn("privacy_request_late", { request: request.id, told: members });
      told.push({ requestId: request.id, members });
    }
  } finally {
    await releaseLease(db, LATE_REQUESTS_LEASE, holder, new Date());
  }
  if (told.some((entry) => entry.members > 0)) void kickOutbox();
  return { ran: true, told };
}

const INSTANCE = randomUUID();

/** Every 15 minutes across the instances (instrumentation.ts; lib/db/leased-job.ts wakes it when a run is due). */
export function startLateRequestsSchedule(): void {
  startLeasedJob({
    lease: LATE_REQUESTS_LEASE,
    gapMs: EVERY_MS,
    firstLookMs: 45_000,
    maxSleepMs: EVERY_MS,
    run: async ({ first, minGapMs }) => {
      const report = await notifyLateRequests(await getDb(), { holder: INSTANCE, minGapMs: first ? 0 : minGapMs });
      return report.ran ? "ran" : "idle";
    },
  });
}
