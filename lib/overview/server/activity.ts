import "server-only";

import { sql } from "drizzle-orm";

import { distinctActions } from "@/lib/audit-trail/server/query";
import { queryRows, type Database } from "@/lib/db/client";
import { isExportAction, isLookupAction, type AuditActivity } from "@/lib/overview/activity";
import { addDays, type OverviewPeriod } from "@/lib/overview/period";
import { startOfDay } from "@/lib/shared/time-zone";

export async function auditActivity(db: Database, period: OverviewPeriod, timeZone: string): Promise<AuditActivity> {
  // The action names come from the trail itself (an index skip scan), so the count below can use the
  // (action, at) index for each one instead of scanning every event of the period.
  const actions = (await distinctActions(db)).filter((action) => isLookupAction(action) || isExportAction(action));
  const days = period.days.map((day) => ({
    day,
    counts: Object.fromEntries(actions.map((action) => [action, 0])) as Record<string, number>,
  }));
  if (actions.length > 0) {
    const start = startOfDay(period.from, timeZone);
    const end = startOfDay(addDays(period.to, 1), timeZone);
    const rows = await queryRows<{ action: string; day: string; n: number }>(
      db,
      sql`
      select action, to_char(at at time zone ${timeZone}, 'YYYY-MM-DD') as day, count(*)::int as n
      from audit_events
      where action in (${sql.join(
        actions.map((action) => sql`${action}`),
        sql`, `,
      )})
        and at >= ${start.toISOString()} and at < ${end.toISOString()} and outcome = 'success'
      group by 1, 2`,
    );
    const byDay = new Map(days.map((entry) => [entry.day, entry]));
    for (const row of rows) {
      const entry = byDay.get(row.day);
      if (entry) entry.counts[row.action] = Number(row.n);
    }
  }
  return { days, lookupActions: actions.filter(isLookupAction), exportActions: actions.filter(isExportAction) };
}
