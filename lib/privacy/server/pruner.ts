import "server-only";

import { and, asc, eq, gt, inArray, isNotNull, isNull, lt, ne, notExists, or, sql } from "drizzle-orm";
import type { AnyPgColumn } from "drizzle-orm/pg-core";

import { pruneAuditEvents, recordEvent } from "@/lib/audit-trail/server";
import { authChallenges, staffSessions } from "@/lib/auth/server/tables";
import { caseEntries, cases, suspiciousActivityReports, verificationIndex } from "@/lib/cases/server/tables";
import { config } from "@/lib/config";
import type { Database } from "@/lib/db/client";
import { acquireLease, releaseLease } from "@/lib/db/lease";
import { liveEvents, rateLimits } from "@/lib/db/tables";
import { pruneUpstreamCalls } from "@/lib/db/upstream-calls";
import { log } from "@/lib/log";
import { notificationOutbox, notifications } from "@/lib/notifications/server/tables";
import { RETENTION_KINDS, type RetentionCounts, type RetentionKind } from "@/lib/privacy/retention";
import { documentCrops } from "@/lib/verifications/server/tables";
import { webhookDeliveries } from "@/lib/webhooks/server/tables";

import { retentionPolicies, type RetentionPolicy } from "./policies";
import { privacyRequests } from "./tables";
import { shortenDeliveryBody } from "./webhook-body";

/*
 * The retention pruner: applies every policy of policies.ts once. Every instance schedules it
 * (schedule.ts); a lease in the database (lib/db/lease.ts, with the interval as its minimum gap) makes one of
 * them run it per interval, and `npm run retention:run` runs it by hand. Each run is one `retention.prune`
 * audit event with the count per kind (the last run is read back from it: no table of its own).
 *
 * A row is past its policy when its reference time is strictly before `now - days`: a row exactly at the
 * boundary stays until the next run. Each kind is one statement (or, for webhook bodies, small batches), so a
 * run never holds a long transaction; a kind that fails is logged and the others still run.
 *
 * Audit events are never deleted here: the audit trail's own pruner does it (chain checkpoint, database
 * guard), handed in as `pruneAudit`.
 */

const DAY_MS = 86_400_000;
export const RETENTION_LEASE = "retention";
const LEASE_TTL_MS = 60 * 60_000;
const BODY_BATCH = 500;

/** The audit trail's pruner (pruneAuditEvents, lib/audit-trail/server): how many events it removed. */
export type AuditPruner = (db: Database, options: { before: Date; now?: Date }) => Promise<number>;

export interface RetentionRunOptions {
  /** Defaults to the audit trail's own; a test may hand in another. */
  pruneAudit?: AuditPruner;
  holder: string;
  now?: Date;
  /** Refuse while the last run finished less than this ago (the schedule's interval); 0 on demand. */
  minGapMs?: number;
  policies?: RetentionPolicy[];
}

export type RetentionRunReport = { ran: false } | { ran: true; at: Date; counts: RetentionCounts; failed: RetentionKind[] };

export async function runRetention(db: Database, options: RetentionRunOptions): Promise<RetentionRunReport> {
  const now = new Date(Math.floor((options.now ?? new Date()).getTime()));
  const taken = await acquireLease(db, {
    name: RETENTION_LEASE,
    holder: options.holder,
    ttlMs: LEASE_TTL_MS,
    minGapMs: options.minGapMs ?? 0,
    now,
  });
  if (!taken) return { ran: false };
  const started = Date.now();
  let finished: Date | null = null;
  try {
    const policies = options.policies ?? retentionPolicies();
    const cutoff = (kind: RetentionKind): Date => {
      const policy = policies.find((entry) => entry.kind === kind);
      if (!policy) throw new Error(`no retention policy for ${kind}`);
      return new Date(now.getTime() - Math.round(policy.days * DAY_MS));
    };
    const counts = Object.fromEntries(RETENTION_KINDS.map((kind) => [kind, 0])) as RetentionCounts;
    const failed: RetentionKind[] = [];
    for (const kind of RETENTION_KINDS) {
      try {
        counts[kind] = await PRUNERS[kind](db, cutoff(kind), { now, options });
      } catch (error) {
        failed.push(kind);
        log.warn("retention_kind_failed", { kind, error });
      }
    }
    await recordEvent(
      {
        actor: null,
        action: "retention.prune",
        outcome: failed.length ? "failure" : "success",
        // What was removed, by kind (a kind that removed nothing is left out: the event's details are capped at 16
        // entries, and there are more kinds), and the kinds that failed, if any.
        details: {
          ...Object.fromEntries(Object.entries(counts).filter(([, count]) => count > 0)),
          ...(failed.length ? { failed: failed.join(",") } : {}),
        },
        at: now,
      },
      db,
    );
    // On the run's own clock (a test's, or the real one), so the schedule's gap is measured from the run.
    finished = new Date(now.getTime() + (Date.now() - started));
    return { ran: true, at: now, counts, failed };
  } finally {
    await releaseLease(db, RETENTION_LEASE, options.holder, finished);
  }
}

/** No open case exists for the verification named in `publicId`: its rows stay while someone works on it. */
function noOpenCase(db: Database, publicId: AnyPgColumn) {
  return notExists(
    db
      .select({ id: cases.id })
      .from(cases)
      .where(and(eq(cases.publicId, publicId), eq(cases.status, "open"))),
  );
}

type Pruner = (db: Database, cutoff: Date, context: { now: Date; options: RetentionRunOptions }) => Promise<number>;

const PRUNERS: Record<RetentionKind, Pruner> = {
  audit_events: async (db, before, { now, options }) => (options.pruneAudit ?? pruneAuditEvents)(db, { before, now }),

  // The text of notes, outcome comments and confirmation reasons of cases closed before the cutoff; the entries
  // stay (who did what, when), marked so the timeline can say the text was removed.
  case_notes: async (db, before) => {
    const closed = db
      .select({ id: cases.id })
      .from(cases)
      .where(and(eq(cases.status, "closed"), lt(cases.closedAt, before)));
    const entries = await db
      .update(caseEntries)
      .set({ text: null, details: sql`${caseEntries.details} || '{"text_removed":"retention"}'::jsonb` })
      .where(and(isNotNull(caseEntries.text), inArray(caseEntries.caseId, closed)))
      .returning({ id: caseEntries.id });
    const comments = await db
      .update(cases)
      .set({ outcomeComment: null })
      .where(and(isNotNull(cases.outcomeComment), eq(cases.status, "closed"), lt(cases.closedAt, before)))
      .returning({ id: cases.id });
    return entries.length + comments.length;
  },

  // Closed cases with their entries and re-verification links (both cascade).
  cases: async (db, before) =>
    (
      await db
        .delete(cases)
        .where(and(eq(cases.status, "closed"), lt(cases.closedAt, before)))
        .returning({ id: cases.id })
    ).length,

  // Bodies of deliveries processed (or ignored) before the cutoff, cut to what processing reads. Done in JS
  // (the parser's own shape), in batches by id; a body already short is left alone and not counted.
  webhook_bodies: async (db, before) => {
    let shortened = 0;
    let after = 0;
    for (;;) {
      const rows = await db
        .select({ id: webhookDeliveries.id, body: webhookDeliveries.body })
        .from(webhookDeliveries)
        .where(
          and(
            inArray(webhookDeliveries.state, ["processed", "ignored"]),
            lt(webhookDeliveries.processedAt, before),
            gt(webhookDeliveries.id, after),
          ),
        )
        .orderBy(asc(webhookDeliveries.id))
        .limit(BODY_BATCH);
      for (const row of rows) {
        const short = shortenDeliveryBody(row.body);
        if (short === row.body) continue;
        await db.update(webhookDeliveries).set({ body: short }).where(eq(webhookDeliveries.id, row.id));
        shortened += 1;
      }
      if (rows.length < BODY_BATCH) return shortened;
      after = rows.at(-1)!.id;
    }
  },

  // Finished deliveries (never a pending one, still to be processed) received before the cutoff.
  webhook_deliveries: async (db, before) =>
    (
      await db
        .delete(webhookDeliveries)
        .where(and(ne(webhookDeliveries.state, "pending"), lt(webhookDeliveries.receivedAt, before)))
        .returning({ id: webhookDeliveries.id })
    ).length,

  search_index: async (db, before) =>
    (
      await db
        .delete(verificationIndex)
        .where(and(lt(verificationIndex.updatedAt, before), noOpenCase(db, verificationIndex.publicId)))
        .returning({ id: verificationIndex.publicId })
    ).length,

  // Ended sessions: revoked before the cutoff, or not used since (far past the idle and absolute timeouts).
  staff_sessions: async (db, before) =>
    (
      await db
        .delete(staffSessions)
        .where(or(lt(staffSessions.revokedAt, before), lt(staffSessions.lastSeenAt, before)))
        .returning({ id: staffSessions.id })
    ).length,

  // Windows and locks past their expiry (rate-limit.ts also sweeps them now and then on writes).
  rate_limits: async (db, before) =>
    (await db.delete(rateLimits).where(lt(rateLimits.expiresAt, before)).returning({ key: rateLimits.key })).length,

  notifications: async (db, before) =>
    (await db.delete(notifications).where(lt(notifications.readAt, before)).returning({ id: notifications.id })).length,

  // Sent before the cutoff, or never sent and created before it (long given up: the outbox stops after 6 tries).
  notification_outbox: async (db, before) =>
    (
      await db
        .delete(notificationOutbox)
        .where(or(lt(notificationOutbox.sentAt, before), and(isNull(notificationOutbox.sentAt), lt(notificationOutbox.createdAt, before))))
        .returning({ id: notificationOutbox.id })
    ).length,

  // An hour (lib/db/live.ts sweeps them too, from publishLive).
  live_events: async (db, before) => (await db.delete(liveEvents).where(lt(liveEvents.at, before)).returning({ id: liveEvents.id })).length,

  auth_challenges: async (db, before) =>
    (await db.delete(authChallenges).where(lt(authChallenges.expiresAt, before)).returning({ id: authChallenges.id })).length,

  document_crops: async (db, before) =>
    (
      await db
        .delete(documentCrops)
        .where(and(lt(documentCrops.setAt, before), noOpenCase(db, documentCrops.publicId)))
        .returning({ id: documentCrops.publicId })
    ).length,

  // Titular requests closed before the cutoff; an open one never (however late).
  privacy_requests: async (db, before) =>
    (
      await db
        .delete(privacyRequests)
        .where(and(eq(privacyRequests.state, "closed"), lt(privacyRequests.closedAt, before)))
        .returning({ id: privacyRequests.id })
    ).length,

  // Suspicious-activity reports filed before the cutoff (five years); a draft never.
  suspicious_activity_reports: async (db, before) =>
    (
      await db
        .delete(suspiciousActivityReports)
        .where(and(eq(suspiciousActivityReports.status, "filed"), lt(suspiciousActivityReports.filedAt, before)))
        .returning({ id: suspiciousActivityReports.id })
    ).length,

  // Whole days before the cutoff's day, in the display time zone the counts are kept by.
  upstream_calls: async (db, before) =>
    pruneUpstreamCalls(db, new Intl.DateTimeFormat("en-CA", { timeZone: config().displayTimeZone }).format(before)),
};
