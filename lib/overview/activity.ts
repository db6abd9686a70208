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
