import type { OverviewPeriod } from "./period";

/*
 * The overview's tables that download as CSV (GET /api/overview/export), each with the message key of the
 * title it carries on the page. Shared: no server imports (the page draws the links from it).
 */
export const OVERVIEW_TABLE_TITLES = {
  rates: "rates.title",
  by_status: "byStatus.title",
  daily: "daily.title",
  backlog: "cases.backlogTitle",
  sla: "cases.slaTitle",
  outcomes: "cases.outcomesTitle",
  activity: "activity.title",
} as const;

export type OverviewTable = keyof typeof OVERVIEW_TABLE_TITLES;
export const OVERVIEW_TABLES = Object.keys(OVERVIEW_TABLE_TITLES) as OverviewTable[];

/** The download address of one table for the period on screen. */
export function overviewExportHref(table: OverviewTable, period: Pick<OverviewPeriod, "from" | "to">): string {
  return `/api/overview/export?${new URLSearchParams({ table, from: period.from, to: period.to })}`;
}
