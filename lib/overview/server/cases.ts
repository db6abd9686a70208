import "server-only";

import { and, eq, gte, inArray, isNotNull, lt, sql } from "drizzle-orm";

import { AGE_BUCKETS_HOURS, RECOMMENDATIONS, type Recommendation } from "@/lib/cases/rules";
import { cases } from "@/lib/cases/server/tables";
import type { Database } from "@/lib/db/client";
import type { CaseFigures } from "@/lib/overview/cases";

/*
 * Case-work figures for the overview, read from the case tables (lib/cases owns them and their rules):
 * the open backlog by age, SLA breaches, and recommendations against the upstream's final status.
 * Counts only; no case identifier, note or person leaves this module.
 */

// The buckets are case work's (lib/cases/rules.ts), so the queue's `age` filter opens exactly these counts.
export { AGE_BUCKETS_HOURS, RECOMMENDATIONS };

const HOUR_MS = 3_600_000;

/** One connection's case figures (the page's, lib/connections). */
export async function caseFigures(
  db: Database,
  connectionId: string,
  range: { start: Date; end: Date },
  now: Date = new Date(),
): Promise<CaseFigures> {
  const here = eq(cases.connectionId, connectionId);
  const ago = (hours: number) => new Date(now.getTime() - hours * HOUR_MS).toISOString();
  const [h1, h3, h7] = AGE_BUCKETS_HOURS.map(ago) as [string, string, string];
  const nowIso = now.toISOString();

  const [backlogRows, closedRows, outcomeRows] = await Promise.all([
    db
      .select({
        open: sql<number>`count(*)::int`,
        under1: sql<number>`(count(*) filter (where ${cases.openedAt} > ${h1}::timestamptz))::int`,
        under3: sql<number>`(count(*) filter (where ${cases.openedAt} <= ${h1}::timestamptz and ${cases.openedAt} > ${h3}::timestamptz))::int`,
        under7: sql<number>`(count(*) filter (where ${cases.openedAt} <= ${h3}::timestamptz and ${cases.openedAt} > ${h7}::timestamptz))::int`,
        older: sql<number>`(count(*) filter (where ${cases.openedAt} <= ${h7}::timestamptz))::int`,
        overdue: sql<number>`(count(*) filter (where ${cases.dueAt} < ${nowIso}::timestamptz))::int`,
      })
      .from(cases)
      .where(and(here, eq(cases.status, "open"))),
    db
      .select({
        closed: sql<number>`count(*)::int`,
        late: sql<number>`(count(*) filter (where ${cases.closedAt} > ${cases.dueAt}))::int`,
        disagreements: sql<number>`(count(*) filter (where ${cases.disagreement}))::int`,
      })
      .from(cases)
      .where(and(here, eq(cases.status, "closed"), gte(cases.closedAt, range.start), lt(cases.closedAt, range.end))),
    db
      .select({ recommendation: cases.recommendation, finalStatus: cases.finalStatus, count: sql<number>`count(*)::int` })
      .from(cases)
      .where(
        and(
          here,
          eq(cases.status, "closed"),
          gte(cases.closedAt, range.start),
          lt(cases.closedAt, range.end),
          isNotNull(cases.recommendation),
          isNotNull(cases.finalStatus),
          inArray(cases.outcomeState, ["confirmed", "recorded"]),
        ),
      )
      .groupBy(cases.recommendation, cases.finalStatus),
  ]);
  const backlog = backlogRows[0];
  const closed = closedRows[0];
  return {
    backlog: {
      under_1d: Number(backlog?.under1 ?? 0),
      "1d_3d": Number(backlog?.under3 ?? 0),
      "3d_7d": Number(backlog?.under7 ?? 0),
      over_7d: Number(backlog?.older ?? 0),
    },
    open: Number(backlog?.open ?? 0),
    overdue: Number(backlog?.overdue ?? 0),
    closedInPeriod: Number(closed?.closed ?? 0),
    closedLate: Number(closed?.late ?? 0),
    outcomes: outcomeRows
      .map((row) => ({
        recommendation: row.recommendation as Recommendation,
        finalStatus: row.finalStatus as string,
        count: Number(row.count),
      }))
      .sort(
        (a, b) =>
          RECOMMENDATIONS.indexOf(a.recommendation) - RECOMMENDATIONS.indexOf(b.recommendation) ||
          a.finalStatus.localeCompare(b.finalStatus),
      ),
    disagreements: Number(closed?.disagreements ?? 0),
    closedRange: { from: range.start.toISOString(), to: range.end.toISOString() },
  };
}
