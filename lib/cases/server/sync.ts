import "server-only";

import { randomUUID } from "node:crypto";

import { and, asc, eq, lt } from "drizzle-orm";

import { cases } from "@/lib/cases/server/schema";
import type { Database } from "@/lib/db/client";
import { isUpstreamError } from "@/lib/upstream/http";
import type { Verification, VerificationList } from "@/lib/upstream/model/verification";

import { acquireLease, releaseLease, renewLease } from "../../db/lease";
import type { CaseSettings } from "../rules";
import { autoAssign } from "./auto-assign";
import { indexVerifications, type IndexEntry } from "./search";
import { applyObservations, observe } from "./store";

/*
 * The sync: pages through the upstream list with `status=review` and opens or refreshes a case for each
 * verification there, so cases exist even when an event was missed. Cheap on the upstream: the list item
 * is the whole verification, so one call brings up to `perPage` cases and no detail is fetched for them;
 * only open cases the pass did not see (they left review, or were opened by a red flag) are fetched one by
 * one, at most `maxStaleChecks` per run, oldest-seen first, to learn whether they reached a final status.
 * Safe with several instances: a lease in the database lets one run at a time, and every write is an
 * idempotent upsert, so a run repeated (or racing an event) gives the same cases.
 *
 * The list is "the most recent verification of each person", newest first; a verification entering
 * review during the pass shifts later pages (one seen twice, harmless), one leaving it may be skipped
 * until the next pass or its event.
 */

export const SYNC_LEASE = "cases.sync";

export interface SyncClient {
  listVerifications(filters: { status: string[]; per_page: number; page: number }, signal?: AbortSignal): Promise<VerificationList>;
  getVerification(publicId: string, signal?: AbortSignal): Promise<Verification>;
}

export interface SyncOptions {
  client: SyncClient;
  settings: CaseSettings;
  perPage: number;
  /** Refuse when the last run finished less than this ago (the schedule); 0 for on-demand runs. */
  minGapMs?: number;
  maxStaleChecks?: number;
  holder?: string;
  leaseTtlMs?: number;
}

export interface SyncReport {
  ran: boolean;
  pages: number;
  upstreamCalls: number;
  seen: number;
  opened: number;
  closed: number;
  staleChecked: number;
  durationMs: number;
}

export async function syncReviewCases(db: Database, options: SyncOptions): Promise<SyncReport> {
  const started = Date.now();
  const holder = options.holder ?? randomUUID();
  const leaseTtlMs = options.leaseTtlMs ?? 5 * 60_000;
  const report: SyncReport = { ran: false, pages: 0, upstreamCalls: 0, seen: 0, opened: 0, closed: 0, staleChecked: 0, durationMs: 0 };
  const runStart = new Date();
  if (!(await acquireLease(db, { name: SYNC_LEASE, holder, ttlMs: leaseTtlMs, minGapMs: options.minGapMs, now: runStart }))) {
    report.durationMs = Date.now() - started;
    return report;
  }
  report.ran = true;
  let finished = false;
  try {
    for (let page = 1; ; page += 1) {
      const list = await options.client.listVerifications({ status: ["review"], per_page: options.perPage, page });
      report.upstreamCalls += 1;
      report.pages += 1;
      await absorb(db, list.items, options.settings, report);
      if (list.items.length < options.perPage || page * options.perPage >= list.pagination.total) break;
      // A lost lease means another instance took over after ours expired: stop rather than run twice.
      if (!(await renewLease(db, { name: SYNC_LEASE, holder, ttlMs: leaseTtlMs }))) return report;
    }
    const stale = await db
      .select({ publicId: cases.publicId })
      .from(cases)
      .where(and(eq(cases.status, "open"), lt(cases.lastSeenAt, runStart)))
      .orderBy(asc(cases.lastSeenAt))
      .limit(options.maxStaleChecks ?? 200);
    for (const { publicId } of stale) {
      report.upstreamCalls += 1;
      report.staleChecked += 1;
      try {
        await absorb(db, [await options.client.getVerification(publicId)], options.settings, report);
      } catch (error) {
        // Gone upstream (404): nothing to learn now; the case stays as it is for a person to look at.
        if (!(isUpstreamError(error) && error.kind === "not_found")) throw error;
      }
    }
    finished = true;
    return report;
  } finally {
    report.durationMs = Date.now() - started;
    await releaseLease(db, SYNC_LEASE, holder, finished ? new Date() : null);
  }
}

async function absorb(db: Database, items: Verification[], settings: CaseSettings, report: SyncReport): Promise<void> {
  report.seen += items.length;
  const result = await applyObservations(
    db,
    items.map((item) => observe(item, settings)),
    settings,
  );
  report.opened += result.opened.length;
  report.closed += result.closed.length;
  // After the cases' transaction committed: each assignment takes the team's lock on its own (auto-assign.ts).
  await autoAssign(db, result.opened);
  await indexVerifications(db, items.map(indexEntryOf));
}

export function indexEntryOf(verification: Verification): IndexEntry {
  return {
    publicId: verification.publicId,
    cpf: verification.documentMasked ? null : verification.document,
    documentMasked: verification.documentMasked ? verification.document : null,
  };
}
