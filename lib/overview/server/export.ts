import "server-only";

import { createTranslator } from "next-intl";

import { audited, type RequestContext } from "@/lib/audit-trail/server";
import { csvRecord, csvRowStream } from "@/lib/audit-trail/server/csv";
import { AGE_BUCKETS, RECOMMENDATIONS } from "@/lib/cases/rules";
import { config } from "@/lib/config";
import { getDb } from "@/lib/db/client";
import type { Locale } from "@/lib/i18n/locales";
import { loadMessages } from "@/lib/i18n/messages";
import { activityColumns, type ActivityMessages } from "@/lib/overview/activity";
import { outcomeMatrix } from "@/lib/overview/cases";
import { ratesOf, STATUSES } from "@/lib/overview/figures";
import { parseOverviewPeriod, type OverviewPeriod } from "@/lib/overview/period";
import { OVERVIEW_TABLES, type OverviewTable } from "@/lib/overview/tables";
import { isoInZone } from "@/lib/shared/time-zone";
import type { InputProblem } from "@/lib/verifications/rules";

import { panelLoaders, type OverviewDeps } from "./overview";

/*
 * CSV of one overview table (GET /api/overview/export?table=…&<period>): the numbers come from the same
 * panel loader the page uses (only the panel the table needs is read), written through the audit export's
 * formula-safe writer. Header and row labels are in the caller's language; counts and shares stay plain
 * numbers (a share is a fraction, 0 to 1) so a spreadsheet reads them; days are calendar days in the display
 * time zone, and the one instant (when a backlog was taken) carries its offset. Counts only: nothing personal.
 */

export type ParsedExport = { ok: true; table: OverviewTable; period: OverviewPeriod } | { ok: false; problems: InputProblem[] };

/** Reads `table` and the page's period parameters; every problem is named by its parameter. */
export function parseOverviewExport(params: URLSearchParams, today: string): ParsedExport {
  const rest = new URLSearchParams(params);
  const tables = rest.getAll("table");
  rest.delete("table");
  const problems: InputProblem[] = [];
  const table = tables.length === 1 ? OVERVIEW_TABLES.find((name) => name === tables[0]) : undefined;
  if (!table) problems.push({ field: "table", message: `must be one of ${OVERVIEW_TABLES.join(", ")}` });
  const period = parseOverviewPeriod(rest, today);
  if (!period.ok) problems.push(...period.problems);
  return table && period.ok ? { ok: true, table, period: period.period } : { ok: false, problems };
}

type Cell = string | number | null;
// next-intl's translators are typed by key; the keys here are built from names, so they are read loosely.
type Translate = ((key: string, values?: Record<string, string>) => string) & { has: (key: string) => boolean };

export interface OverviewCsv {
  header: Cell[];
  rows: Cell[][];
}

/** One table's header and rows, from its panel's loader. */
export async function overviewTableCsv(
  table: OverviewTable,
  period: OverviewPeriod,
  locale: Locale,
  deps: OverviewDeps & { now: Date },
): Promise<OverviewCsv> {
  const messages = await loadMessages(locale);
  const t = createTranslator({ locale, messages, namespace: "overview" }) as unknown as Translate;
  const statusOf = createTranslator({ locale, messages, namespace: "verifications.status" }) as unknown as Translate;
  const statusLabel = (status: string) => (statusOf.has(status) ? statusOf(status) : status);
  const timeZone = (deps.cfg ?? config()).displayTimeZone;
  const asOf = isoInZone(deps.now, timeZone);
  const share = (part: number, whole: number) => (whole === 0 ? null : part / whole);

  switch (table) {
    case "by_status": {
      const counts = await panelLoaders.verifications(period, deps);
      const rows: Cell[][] = STATUSES.map((status) => [
        statusLabel(status),
        counts.byStatus[status],
        share(counts.byStatus[status], counts.total),
      ]);
      if (counts.other > 0) rows.push([t("byStatus.other"), counts.other, share(counts.other, counts.total)]);
      rows.push([t("byStatus.total"), counts.total, share(counts.total, counts.total)]);
      return { header: [t("byStatus.status"), t("byStatus.count"), t("byStatus.share")], rows };
    }
    case "rates": {
      const counts = await panelLoaders.verifications(period, deps);
      const rates = ratesOf(counts.byStatus);
      return {
        header: [t("export.measure"), t("export.value")],
        rows: [
          [t("rates.total"), counts.total],
          [t("export.analysed"), rates.analysed],
          [t("rates.approval"), rates.approval],
          [t("rates.review"), rates.review],
          [t("rates.reproval"), rates.reproval],
        ],
      };
    }
    case "daily": {
      const counts = await panelLoaders.verifications(period, deps);
      return {
        header: [t("daily.day"), ...STATUSES.map(statusLabel), t("daily.total")],
        rows: counts.days.map((day) => [day.day, ...STATUSES.map((status) => day.byStatus[status]), day.total]),
      };
    }
    case "backlog": {
      const figures = await panelLoaders.cases(period, deps);
      return {
        header: [t("cases.age"), t("cases.openCases"), t("export.asOf")],
        rows: AGE_BUCKETS.map((bucket) => [t(`cases.buckets.${bucket}`), figures.backlog[bucket], asOf]),
      };
    }
    case "sla": {
      const figures = await panelLoaders.cases(period, deps);
      return {
        header: [t("export.measure"), t("export.value"), t("export.asOf")],
        rows: (["open", "overdue", "closedInPeriod", "closedLate"] as const).map((key) => [t(`cases.${key}`), figures[key], asOf]),
      };
    }
    case "outcomes": {
      const matrix = outcomeMatrix((await panelLoaders.cases(period, deps)).outcomes);
      return {
        header: [
          t("cases.recommendation"),
          ...matrix.finals.map((finalStatus) => t("cases.finalStatus", { status: statusLabel(finalStatus) })),
        ],
        rows: RECOMMENDATIONS.map((recommendation) => [
          t(`cases.recommendations.${recommendation}`),
          ...matrix.finals.map((finalStatus) => matrix.count(recommendation, finalStatus)),
        ]),
      };
    }
    case "activity": {
      const activity = await panelLoaders.activity(period, deps);
      const activityMessages = createTranslator({ locale, messages, namespace: "overview.activity" }) as unknown as ActivityMessages;
      const columns = activityColumns(activity, activityMessages);
      return {
        header: [t("activity.day"), ...columns.map((column) => column.label)],
        rows: [
          ...activity.days.map((day) => [day.day, ...columns.map((column) => day.counts[column.action] ?? 0)]),
          [t("activity.total"), ...columns.map((column) => column.total)],
        ],
      };
    }
  }
}

export interface OverviewExport {
  filename: string;
  rows: number;
  stream: ReadableStream<Uint8Array>;
}

/**
 * The export as an audited read (`overview.export`, with the table and period): the table is computed before
 * the answer starts, so a refusal upstream is an ordinary error response, recorded as a failure.
 */
export async function auditedOverviewExport(
  context: RequestContext,
  table: OverviewTable,
  period: OverviewPeriod,
  locale: Locale,
  deps: Partial<OverviewDeps> = {},
): Promise<OverviewExport> {
  const details = { table, from: period.from, to: period.to, format: "csv" };
  return audited(context, { action: "overview.export", details, detailsOf: (result) => ({ rows: result.rows }) }, async () => {
    const db = deps.db ?? (await getDb());
    const csv = await overviewTableCsv(table, period, locale, { ...deps, db, now: deps.now ?? new Date() });
    async function* batches() {
      yield csv.rows;
    }
    const stream = csvRowStream(`\uFEFF${csvRecord(csv.header)}`, batches(), csvRecord);
    return { filename: `overview-${table}-${period.from}-${period.to}.csv`, rows: csv.rows.length, stream };
  });
}
