import "server-only";

import { and, eq, gte, inArray, lt, sql } from "drizzle-orm";

import type { Config } from "@/lib/config";
import type { Database } from "@/lib/db/client";
import { log } from "@/lib/log";
import {
  combineCounts,
  emptyStatusCounts,
  STATUSES,
  type DayCounts,
  type KnownStatus,
  type VerificationCounts,
} from "@/lib/overview/figures";
import { addDays, type OverviewPeriod } from "@/lib/overview/period";
import { startOfDay } from "@/lib/shared/time-zone";
import type { CoreClient } from "@/lib/upstream/core";
import type { Verification } from "@/lib/upstream/model/verification";
import { listVerifications } from "@/lib/verifications/server/list";

import { COUNT_TTL_MS, countEach, type CountCache } from "./counts";
import { verificationMirror, verificationMirrorDays } from "./tables";

/*
 * The overview's status mirror (issue 37, item 3). Counting a period's verifications per status and day from the
 * service's list totals costs one call per status and day (156 for 31 days). Instead the overview keeps, per
 * connection, what the list shows for each day it has read: id, status, flow, journey, creation and decision dates,
 * nothing personal (tables.ts). A view then costs:
 *
 *  - the service's own totals for the period, one per status and one in all (6 calls, shared for COUNT_TTL_MS by the
 *    count cache): the truth each view is checked against, so a chart never disagrees with the list its click opens;
 *  - the days not yet read whole, read page by page (`from`/`to` on those days, the largest page the service takes):
 *    a day is kept once read after it ended (plus SETTLE_MS for the clocks), so only today's and yesterday's are read
 *    again on a later view, usually in one call, and not within COUNT_TTL_MS of their last reading;
 *  - nothing else, unless the mirror's sums per status differ from the service's totals (a verification moved status
 *    without its event reaching us, a person's newer verification replaced the older in the list): that is logged
 *    (`verification_mirror_drift`, counts only) and the whole period is read again, which repairs it.
 *
 * The service's events keep statuses current between views (mirrorListener). When reading the period would cost more
 * calls than counting it (a very busy integration), or the service takes no page parameter, the counts come from
 * per-day totals as before (./counts.ts) and the mirror is left as it is.
 */

/** A day read this long after it ended is final: verifications created near midnight have reached the list. */
const SETTLE_MS = 10 * 60_000;

export interface MirrorDeps {
  db: Database;
  cfg: Config;
  client: CoreClient;
  cache: CountCache;
  connectionId: string;
}

interface ServiceTotals {
  byStatus: Record<KnownStatus, number>;
  total: number;
}

/** The period's totals as the service counts them: one count per status, one in all (cached like every count). */
async function serviceTotals(period: OverviewPeriod, deps: MirrorDeps): Promise<ServiceTotals> {
  const range = { from: period.from, to: period.to };
  const counts = await countEach([...STATUSES.map((status) => ({ ...range, status: [status] })), range], deps);
  const byStatus = emptyStatusCounts();
  STATUSES.forEach((status, index) => (byStatus[status] = counts[index]!));
  return { byStatus, total: counts.at(-1)! };
}

/** The period's days not read whole since they ended (never read, or read while they could still change). */
async function daysToRead(period: OverviewPeriod, deps: MirrorDeps, timeZone: string): Promise<string[]> {
  const read = await deps.db
    .select({ day: verificationMirrorDays.day, readAt: verificationMirrorDays.readAt })
    .from(verificationMirrorDays)
    .where(and(eq(verificationMirrorDays.connectionId, deps.connectionId), inArray(verificationMirrorDays.day, period.days)));
  const readAt = new Map(read.map((row) => [row.day, row.readAt.getTime()]));
  // A day still changing read within the counts' own lifetime is as fresh as the service's totals it is checked against.
  const fresh = Date.now() - COUNT_TTL_MS;
  return period.days.filter((day) => {
    const settled = startOfDay(addDays(day, 1), timeZone).getTime() + SETTLE_MS;
    const at = readAt.get(day) ?? 0;
    return at < settled && at < fresh;
  });
}

/** Refused to read: the page parameter is unknown to the service, or reading would cost more than counting. */
class MirrorUnavailable extends Error {}

function rowOf(item: Verification, connectionId: string, seenAt: Date) {
  if (!item.createdAt) return null;
  return {
    connectionId,
    publicId: item.publicId,
    status: item.status,
    flow: item.flow ?? null,
    journey: item.journey ?? null,
    createdAt: new Date(item.createdAt),
    decidedAt: item.decidedAt ? new Date(item.decidedAt) : null,
    seenAt,
  };
}

/**
 * Reads the days from `from` to `to` whole, page by page, into the mirror: each verification the list shows is
 * written, those the mirror held for those days and the list no longer shows are removed, and the days are marked
 * read. At most `maxPages` calls (else MirrorUnavailable, before anything is written).
 */
async function readDays(from: string, to: string, deps: MirrorDeps, timeZone: string, maxPages: number): Promise<void> {
  const started = new Date();
  const perPage = deps.cfg.core.maxPerPage;
  // By id: a verification created while the pages are read shifts the later ones, so an item may come twice.
  const rows = new Map<string, NonNullable<ReturnType<typeof rowOf>>>();
  for (let page = 1; ; page += 1) {
    if (page > maxPages) throw new MirrorUnavailable("too many pages");
    const list = await listVerifications({ from, to, per_page: perPage, page }, { cfg: deps.cfg, client: deps.client });
    if (!list.pagingAvailable && list.pagination.total > list.items.length) throw new MirrorUnavailable("no paging");
    for (const item of list.items) {
      const row = rowOf(item, deps.connectionId, started);
      if (row && !rows.has(row.publicId)) rows.set(row.publicId, row);
    }
    if (list.items.length < perPage || page * perPage >= list.pagination.total) break;
  }
  const range = { start: startOfDay(from, timeZone), end: startOfDay(addDays(to, 1), timeZone) };
  await deps.db.transaction(async (tx) => {
    const values = [...rows.values()];
    for (let index = 0; index < values.length; index += 500) {
      await tx
        .insert(verificationMirror)
        .values(values.slice(index, index + 500))
        .onConflictDoUpdate({
          target: [verificationMirror.connectionId, verificationMirror.publicId],
          set: {
            status: sql`excluded.status`,
            flow: sql`excluded.flow`,
            journey: sql`excluded.journey`,
            createdAt: sql`excluded.created_at`,
            decidedAt: sql`excluded.decided_at`,
            seenAt: sql`excluded.seen_at`,
          },
        });
    }
    await tx
      .delete(verificationMirror)
      .where(
        and(
          eq(verificationMirror.connectionId, deps.connectionId),
          gte(verificationMirror.createdAt, range.start),
          lt(verificationMirror.createdAt, range.end),
          lt(verificationMirror.seenAt, started),
        ),
      );
    const days: string[] = [];
    for (let day = from; day <= to; day = addDays(day, 1)) days.push(day);
    await tx
      .insert(verificationMirrorDays)
      .values(days.map((day) => ({ connectionId: deps.connectionId, day, readAt: started })))
      .onConflictDoUpdate({ target: [verificationMirrorDays.connectionId, verificationMirrorDays.day], set: { readAt: started } });
  });
}

/** The mirror's counts per day and status for the period, days in the display time zone (the date filter's). */
async function mirroredDays(period: OverviewPeriod, deps: MirrorDeps, timeZone: string): Promise<DayCounts[]> {
  const dayOf = sql<string>`to_char(${verificationMirror.createdAt} at time zone ${timeZone}, 'YYYY-MM-DD')`;
  const counted = await deps.db
    .select({ day: dayOf, status: verificationMirror.status, n: sql<number>`count(*)::int` })
    .from(verificationMirror)
    .where(
      and(
        eq(verificationMirror.connectionId, deps.connectionId),
        gte(verificationMirror.createdAt, startOfDay(period.from, timeZone)),
        lt(verificationMirror.createdAt, startOfDay(addDays(period.to, 1), timeZone)),
        inArray(verificationMirror.status, [...STATUSES]),
      ),
    )
    // By position: the time zone is a parameter, and a repeated expression with a second parameter is not the same.
    .groupBy(sql`1`, sql`2`);
  const days = new Map(period.days.map((day) => [day, emptyStatusCounts()]));
  for (const row of counted) {
    const byStatus = days.get(row.day);
    if (byStatus) byStatus[row.status as KnownStatus] = Number(row.n);
  }
  return period.days.map((day) => {
    const byStatus = days.get(day)!;
    return { day, byStatus, total: STATUSES.reduce((sum, status) => sum + byStatus[status], 0) };
  });
}

/** Per status, where the mirror's sum over the period differs from the service's total (empty: they agree). */
function differences(days: DayCounts[], totals: ServiceTotals): Record<string, { mirror: number; service: number }> {
  const found: Record<string, { mirror: number; service: number }> = {};
  for (const status of STATUSES) {
    const mirror = days.reduce((sum, day) => sum + day.byStatus[status], 0);
    if (mirror !== totals.byStatus[status]) found[status] = { mirror, service: totals.byStatus[status] };
  }
  return found;
}

/**
 * The period's counts from the mirror, checked against the service's totals, or `null` when the mirror cannot serve
 * the period (reading it would cost more calls than counting it day by day, or the service takes no page parameter):
 * the caller counts day by day then.
 */
export async function mirroredCounts(period: OverviewPeriod, deps: MirrorDeps): Promise<VerificationCounts | null> {
  const timeZone = deps.cfg.displayTimeZone;
  const totals = await serviceTotals(period, deps);
  // Never more calls than the per-day counts would have cost: reading the whole period (what a repair takes) must fit.
  const budget = STATUSES.length * period.days.length;
  if (Math.ceil(totals.total / deps.cfg.core.maxPerPage) > budget) return null;
  try {
    const unread = await daysToRead(period, deps, timeZone);
    if (unread.length > 0) await readDays(unread[0]!, unread.at(-1)!, deps, timeZone, budget);
    let days = await mirroredDays(period, deps, timeZone);
    const drift = differences(days, totals);
    if (Object.keys(drift).length > 0) {
      log.warn("verification_mirror_drift", { connection: deps.connectionId, from: period.from, to: period.to, ...flatten(drift) });
      await readDays(period.from, period.to, deps, timeZone, budget);
      days = await mirroredDays(period, deps, timeZone);
      const left = differences(days, totals);
      // The list moved while it was read: the next view reads again.
      if (Object.keys(left).length > 0)
        log.warn("verification_mirror_unsettled", { connection: deps.connectionId, from: period.from, to: period.to, ...flatten(left) });
    }
    return combineCounts(days, totals.total);
  } catch (error) {
    if (error instanceof MirrorUnavailable) return null;
    throw error;
  }
}

function flatten(found: Record<string, { mirror: number; service: number }>): Record<string, number> {
  return Object.fromEntries(
    Object.entries(found).flatMap(([status, pair]) => [
      [`${status}Mirror`, pair.mirror],
      [`${status}Service`, pair.service],
    ]),
  );
}

/** An event's status for a mirrored verification (one the overview has read): the next view agrees without reading. */
export async function applyMirrorStatus(
  db: Database,
  connectionId: string,
  change: { publicId: string; status: string | null; decidedAt: Date | null },
): Promise<void> {
  if (!change.status) return;
  await db
    .update(verificationMirror)
    .set({ status: change.status, ...(change.decidedAt ? { decidedAt: change.decidedAt } : {}) })
    .where(and(eq(verificationMirror.connectionId, connectionId), eq(verificationMirror.publicId, change.publicId)));
}
