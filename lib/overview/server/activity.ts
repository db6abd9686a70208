import "server-only";

import { sql } from "drizzle-orm";

import { distinctActions } from "@/lib/audit-trail/server/query";
import type { Database } from "@/lib/db/client";
import { startOfDay } from "@/lib/shared/time-zone";

import { addDays, type OverviewPeriod } from "../period";

/*
 * Lookups and exports per day, read from the audit trail: successful events whose action is a lookup
 * (`lookup.*`) or an export (`*.export`), counted per action and per calendar day in the display time
 * zone. Counts only: no actor, target or detail leaves this module.
 */

export interface ActivityDay {
  day: string;
  /** Successful events per action that day. */
  counts: Record<string, number>;
}

export interface AuditActivity {
  days: ActivityDay[];
  lookupActions: string[];
  exportActions: string[];
}

export const isLookupAction = (action: string) => action.startsWith("lookup.");
export const isExportAction = (action: string) => action.endsWith(".export");

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
    const result = await db.execute<{ action: string; day: string; n: number }>(sql`
      select action, to_char(at at time zone ${timeZone}, 'YYYY-MM-DD') as day, count(*)::int as n
      from audit_events
      where action in (${sql.join(
        actions.map((action) => sql`${action}`),
        sql`, `,
      )})
        and at >= ${start.toISOString()} and at < ${end.toISOString()} and outcome = 'success'
      group by 1, 2`);
    const rows = Array.isArray(result) ? result : (result as { rows: Array<{ action: string; day: string; n: number }> }).rows;
    const byDay = new Map(days.map((entry) => [entry.day, entry]));
    for (const row of rows) {
      const entry = byDay.get(row.day);
      if (entry) entry.counts[row.action] = Number(row.n);
    }
  }
  return { days, lookupActions: actions.filter(isLookupAction), exportActions: actions.filter(isExportAction) };
}

/** A translator over the `overview.activity` messages (next-intl's, on the page and in the CSV). */
export type ActivityMessages = ((key: string) => string) & { has: (key: string) => boolean };

export interface ActivityColumn {
  action: string;
  /** The action's message (`overview.activity.actions.<action with _ for .>`), else the action's own name. */
  label: string;
  /** Its events over the whole period. */
  total: number;
}

/** The activity table's columns, as the page and its CSV lay them out: lookups first, then exports. */
export function activityColumns(activity: AuditActivity, t: ActivityMessages): ActivityColumn[] {
  return [...activity.lookupActions, ...activity.exportActions].map((action) => {
    const key = `actions.${action.replace(/\./g, "_")}`;
    return {
      action,
      label: t.has(key) ? t(key) : action,
      total: activity.days.reduce((sum, day) => sum + (day.counts[action] ?? 0), 0),
    };
  });
}
