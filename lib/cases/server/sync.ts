import "server-only";

import { randomUUID } from "node:crypto";

import { and, asc, eq, gt, inArray, isNotNull, lt, lte, or, sql } from "drizzle-orm";

import type { CaseSettings } from "@/lib/cases/rules";
import { cases } from "@/lib/cases/server/tables";
import type { Database } from "@/lib/db/client";
import { acquireLease, leaseState, releaseLease, renewLease, saveLeaseState } from "@/lib/db/lease";
import { PRIMARY_CONNECTION } from "@/lib/shared/connection-path";
import { currentConnectionId } from "@/lib/upstream/account";
import { isUpstreamError } from "@/lib/upstream/errors";
import { EXPIRED_EVENT, type Verification, type VerificationList } from "@/lib/upstream/model/verification";
import { verificationEvents } from "@/lib/webhooks/server/tables";

import { autoAssign } from "./auto-assign";
import { indexVerifications, type IndexEntry } from "./search";
import { applyObservations, applyStatusOnly, observe } from "./store";

/*
 * The sync: opens or refreshes a case for each verification in review, so cases exist even when an event was
 * missed. Two kinds of run, both under one lease in the database (one instance at a time) and both made of
 * idempotent upserts, so a run repeated (or racing an event) gives the same cases:
 *
 * - **Full** (the first run, every CASE_SYNC_FULL_HOURS, and an admin's "sync now"): pages through the upstream
 *   list with `status=review`. Cheap per case: the list item is the whole verification, so one call brings up
 *   to `perPage` cases; then only open cases the pass did not see (they left review, or were opened by a red
 *   flag) are read one by one, at most `maxStaleChecks` per run, oldest-seen first, to learn whether they
 *   reached a final status. It costs ceil(review / perPage) calls plus those reads.
 * - **Incremental** (scheduled runs in between): what changed since the last run only. The service's events
 *   recorded since the run's cursor (`verification_events.id`, read locally: no upstream call) each apply their
 *   latest status (`applyStatusOnly`: opens on review, closes on a final status or an expiry, never reopens on an
 *   event's word alone); then the review list filtered to verifications created since the last run began (the list's
 *   `from`, CORE_DATE_FILTER_FORMAT: a calendar day or an instant, less a margin for clocks) brings the new ones
 *   with their red flags. With nothing new that is one call. What it cannot see (a verification that entered or
 *   left review without an event reaching us) waits for the next full pass.
 *
 * The cursor (the last event id applied, when the last run and the last full pass began) is the job's state
 * in its lease row (`job_leases.state`), written by the holder when a run finishes; a run that fails keeps the
 * previous state, so the next one covers its ground again.
 *
 * The list is "the most recent verification of each person", newest first; a verification entering
 * review during the pass shifts later pages (one seen twice, harmless), one leaving it may be skipped
 * until the next pass or its event.
 */

export const SYNC_LEASE = "cases.sync";

/**
 * Each connection's sync has its own lease and state (its cursor): `cases.sync` for `primary`, as before connections
 * existed, `cases.sync:{id}` for the others. A pass reads and closes its own connection's cases only.
 */
export function syncLeaseOf(connectionId: string): string {
  return connectionId === PRIMARY_CONNECTION ? SYNC_LEASE : `${SYNC_LEASE}:${connectionId}`;
}

/** Verifications created this long before the last run began are asked for again: the service's clock and ours may differ. */
export const SYNC_SINCE_MARGIN_MS = 10 * 60_000;

export interface SyncListFilters {
  status: string[];
  per_page: number;
  page: number;
  /** Created at or after (an incremental run): `YYYY-MM-DD` or an ISO 8601 instant (CORE_DATE_FILTER_FORMAT). */
  from?: string;
}

export interface SyncClient {
  listVerifications(filters: SyncListFilters, signal?: AbortSignal): Promise<VerificationList>;
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
  /** `full`: the whole review list (the default); `auto`: incremental unless a full pass is due (see above). */
  mode?: "full" | "auto";
  /** In `auto`, a full pass when the last one began this long ago or more (CASE_SYNC_FULL_HOURS); 0: always full. */
  fullEveryMs?: number;
  /** How the incremental run writes the list's `from` (CORE_DATE_FILTER_FORMAT) and the time zone of its day. */
  dateFilter?: { format: "date" | "datetime"; timeZone: string };
  now?: () => Date;
  /** The connection synced (its client's): by default the one the work speaks as (lib/upstream/account.ts). */
  connectionId?: string;
}

/** The options of one run, with the connection and its lease settled. */
type Run = SyncOptions & { connectionId: string; lease: string };

export interface SyncReport {
  ran: boolean;
  mode: "full" | "incremental";
  pages: number;
  upstreamCalls: number;
  seen: number;
  /** Incremental: the verifications whose recorded events were applied. */
  events: number;
  opened: number;
  closed: number;
  staleChecked: number;
  durationMs: number;
  /** A scheduled run over every connection (./schedule.ts): how many of them ran. */
  connections?: number;
}

/** The job's state between runs (`job_leases.state` of SYNC_LEASE). */
interface SyncState {
  /** The last `verification_events.id` the cases reflect. */
  eventCursor: number;
  /** When the last finished run began. */
  since: string;
  /** When the last finished full pass began. */
  lastFullAt: string;
}

function readState(raw: Record<string, unknown>): SyncState | null {
  const { eventCursor, since, lastFullAt } = raw;
  if (typeof eventCursor !== "number" || typeof since !== "string" || typeof lastFullAt !== "string") return null;
  if (Number.isNaN(Date.parse(since)) || Number.isNaN(Date.parse(lastFullAt))) return null;
  return { eventCursor, since, lastFullAt };
}

const DEFAULT_FULL_EVERY_MS = 24 * 3_600_000;

export async function syncReviewCases(db: Database, syncOptions: SyncOptions): Promise<SyncReport> {
  const connectionId = syncOptions.connectionId ?? currentConnectionId();
  const options: Run = { ...syncOptions, connectionId, lease: syncLeaseOf(connectionId) };
  const started = Date.now();
  const holder = options.holder ?? randomUUID();
  const leaseTtlMs = options.leaseTtlMs ?? 5 * 60_000;
  const report: SyncReport = {
    ran: false,
    mode: "full",
    pages: 0,
    upstreamCalls: 0,
    seen: 0,
    events: 0,
    opened: 0,
    closed: 0,
    staleChecked: 0,
    durationMs: 0,
  };
  const runStart = options.now?.() ?? new Date();
  if (!(await acquireLease(db, { name: options.lease, holder, ttlMs: leaseTtlMs, minGapMs: options.minGapMs, now: runStart }))) {
    report.durationMs = Date.now() - started;
    return report;
  }
  report.ran = true;
  let finished = false;
  try {
    const state = readState(await leaseState(db, options.lease));
    // Read before the pass: events recorded while it runs are applied by the next run (ids become visible in order).
    const eventHead = await latestEventId(db);
    const fullEveryMs = options.fullEveryMs ?? DEFAULT_FULL_EVERY_MS;
    const full = options.mode !== "auto" || !state || fullEveryMs === 0 || runStart.getTime() - Date.parse(state.lastFullAt) >= fullEveryMs;
    report.mode = full ? "full" : "incremental";
    const kept = full
      ? await fullPass(db, options, holder, leaseTtlMs, runStart, report)
      : await incrementalPass(db, options, state!, eventHead, holder, leaseTtlMs, report);
    if (!kept) return report;
    const next: SyncState = {
      eventCursor: eventHead,
      since: runStart.toISOString(),
      lastFullAt: full ? runStart.toISOString() : state!.lastFullAt,
    };
    if (!(await saveLeaseState(db, options.lease, holder, { ...next }))) return report;
    finished = true;
    return report;
  } finally {
    report.durationMs = Date.now() - started;
    await releaseLease(db, options.lease, holder, finished ? new Date() : null);
  }
}

/** Pages through the review list (all of it, or created since `from`); false when the lease was lost. */
async function listPass(
  db: Database,
  options: Run,
  holder: string,
  leaseTtlMs: number,
  report: SyncReport,
  from?: string,
): Promise<boolean> {
  for (let page = 1; ; page += 1) {
    const filters: SyncListFilters = { status: ["review"], per_page: options.perPage, page, ...(from ? { from } : {}) };
    const list = await options.client.listVerifications(filters);
    report.upstreamCalls += 1;
    report.pages += 1;
    await absorb(db, list.items, options.settings, report);
    if (list.items.length < options.perPage || page * options.perPage >= list.pagination.total) return true;
    // A lost lease means another instance took over after ours expired: stop rather than run twice.
    if (!(await renewLease(db, { name: options.lease, holder, ttlMs: leaseTtlMs }))) return false;
  }
}

async function fullPass(
  db: Database,
  options: Run,
  holder: string,
  leaseTtlMs: number,
  runStart: Date,
  report: SyncReport,
): Promise<boolean> {
  if (!(await listPass(db, options, holder, leaseTtlMs, report))) return false;
  const stale = await db
    .select({ publicId: cases.publicId })
    .from(cases)
    .where(and(eq(cases.connectionId, options.connectionId), eq(cases.status, "open"), lt(cases.lastSeenAt, runStart)))
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
  return true;
}

async function incrementalPass(
  db: Database,
  options: Run,
  state: SyncState,
  eventHead: number,
  holder: string,
  leaseTtlMs: number,
  report: SyncReport,
): Promise<boolean> {
  const returned = await applyEvents(
    db,
    await eventsSince(db, options.connectionId, state.eventCursor, eventHead),
    options.settings,
    report,
  );
  // An event saying a closed case's verification is back in review may be a late delivery: only the verification
  // as read now reopens it (as the full pass would, seeing it in the list). Rare, so read one by one.
  for (const publicId of returned) {
    report.upstreamCalls += 1;
    try {
      await absorb(db, [await options.client.getVerification(publicId)], options.settings, report);
    } catch (error) {
      if (!(isUpstreamError(error) && error.kind === "not_found")) throw error;
    }
  }
  const since = new Date(Date.parse(state.since) - SYNC_SINCE_MARGIN_MS);
  return listPass(db, options, holder, leaseTtlMs, report, fromBound(since, options.dateFilter));
}

/** The list's `from` for verifications created at or after `since`: its day in the time zone, or the instant itself. */
export function fromBound(since: Date, dateFilter: SyncOptions["dateFilter"] = { format: "date", timeZone: "America/Sao_Paulo" }): string {
  if (dateFilter.format === "datetime") return since.toISOString();
  return new Intl.DateTimeFormat("en-CA", { timeZone: dateFilter.timeZone }).format(since);
}

async function latestEventId(db: Database): Promise<number> {
  const [row] = await db.select({ id: sql<number | null>`max(${verificationEvents.id})` }).from(verificationEvents);
  return Number(row?.id ?? 0);
}

/** What a verification's latest event said: its status, and whether it was the service's expiry. */
interface LatestEvent {
  status: string | null;
  expired: boolean;
}

/** The latest status (or expiry) each verification's events recorded in (cursor, head], by when they occurred. */
async function eventsSince(db: Database, connectionId: string, cursor: number, head: number): Promise<Map<string, LatestEvent>> {
  const rows = await db
    .select({ publicId: verificationEvents.publicId, status: verificationEvents.status, event: verificationEvents.event })
    .from(verificationEvents)
    .where(
      and(
        eq(verificationEvents.connectionId, connectionId),
        gt(verificationEvents.id, cursor),
        lte(verificationEvents.id, head),
        or(isNotNull(verificationEvents.status), eq(verificationEvents.event, EXPIRED_EVENT)),
      ),
    )
    .orderBy(asc(verificationEvents.occurredAt), asc(verificationEvents.id));
  const latest = new Map<string, LatestEvent>();
  for (const row of rows) latest.set(row.publicId, { status: row.status, expired: row.event === EXPIRED_EVENT });
  return latest;
}

/**
 * Applies each verification's latest event status, counting the cases it opened and closed (no upstream call).
 * Returns the closed cases an event says are back in review, which `applyStatusOnly` leaves closed.
 */
async function applyEvents(db: Database, latest: Map<string, LatestEvent>, settings: CaseSettings, report: SyncReport): Promise<string[]> {
  if (latest.size === 0) return [];
  const ids = [...latest.keys()];
  const statusOf = async () =>
    new Map(
      (await db.select({ publicId: cases.publicId, status: cases.status }).from(cases).where(inArray(cases.publicId, ids))).map((row) => [
        row.publicId,
        row.status,
      ]),
    );
  const before = await statusOf();
  for (const [publicId, { status, expired }] of latest) await applyStatusOnly(db, publicId, status, settings, undefined, { expired });
  const after = await statusOf();
  const opened: string[] = [];
  for (const [publicId, status] of after) {
    if (status === "open" && before.get(publicId) !== "open") opened.push(publicId);
    if (status === "closed" && before.get(publicId) === "open") report.closed += 1;
  }
  report.events += latest.size;
  report.opened += opened.length;
  await autoAssign(db, opened);
  return ids.filter((publicId) => latest.get(publicId)?.status === "review" && after.get(publicId) === "closed");
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
