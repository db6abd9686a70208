import "server-only";

import { getTableName, sql, type SQL } from "drizzle-orm";

import { DUE_POINTS, FLAG_POINTS, REVERIFICATION_WAITING_POINTS } from "@/lib/cases/priority";
import { caseReverifications, cases } from "@/lib/cases/server/tables";
import { verificationEvents } from "@/lib/webhooks/server/tables";

import { literals } from "./rule-conditions";

/*
 * The case's priority (lib/cases/priority.ts) as SQL on its row, for the queue's sort by priority: built from the
 * same weights, so the order the queue sorts by is the score its rows show (priority-sql.test.ts runs both over
 * every combination of flags, time left and re-verification).
 */

const HOUR = 3_600_000;

/** The person has not finished the new verification yet (api/verification-statuses.mdx: not opened, started). */
export const NOT_FINISHED = ["not_opened", "started"] as const;

// Qualified by hand: drizzle leaves a column unqualified in a one-table select, where "id" would be the subquery's.
const OUTER_CASE_ID = sql`${sql.identifier(getTableName(cases))}.${sql.identifier(cases.id.name)}`;

/**
 * The case waits for its latest re-verification while the person has not finished it: its status (its own case's,
 * else its latest event's) is unknown or not finished. The same reading as reverificationsOf (./related.ts).
 */
export const REVERIFICATION_WAITING: SQL<boolean> = sql<boolean>`coalesce((
  select coalesce(coalesce(rc.upstream_status, (
    select e.status from ${verificationEvents} e
    where e.public_id = r.public_id and e.status is not null
    order by e.occurred_at desc, e.id desc limit 1
  )) in (${literals(NOT_FINISHED)}), true)
  from ${caseReverifications} r left join ${cases} rc on rc.public_id = r.public_id
  where r.case_id = ${OUTER_CASE_ID}
  order by r.requested_at desc, r.id desc limit 1
), false)`;

/** The case's priority score at `now`, as lib/cases/priority.ts computes it. */
export function priorityScoreSql(now: Date): SQL<number> {
  const flags = Object.entries(FLAG_POINTS).map(
    ([flag, points]) => sql`case when ${cases.flags} @> array[${literals([flag])}]::text[] then ${sql.raw(String(points))} else 0 end`,
  );
  const due = DUE_POINTS.map(
    (band) => sql`when ${cases.dueAt} < ${new Date(now.getTime() + band.withinHours * HOUR)} then ${sql.raw(String(band.points))}`,
  );
  const waiting = sql`case when ${REVERIFICATION_WAITING} then ${sql.raw(String(REVERIFICATION_WAITING_POINTS))} else 0 end`;
  return sql<number>`(${sql.join(flags, sql` + `)} + case ${sql.join(due, sql` `)} else 0 end + ${waiting})`;
}
