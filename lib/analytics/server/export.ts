import "server-only";

import { createTranslator } from "next-intl";

import { citedReasons } from "@/lib/analytics/reasons";
import type { DurationSummary } from "@/lib/analytics/stats";
import type { AnalyticsFigures, TeamAnalytics } from "@/lib/analytics/types";
import { csvRecord, csvRowStream } from "@/lib/audit-trail/server/csv";
import type { Locale } from "@/lib/i18n/locales";
import { loadMessages } from "@/lib/i18n/messages";

/*
 * The team's numbers as CSV (GET /api/analytics/team?format=csv): one row per member, then the team's, with the
 * page's columns and one column per reason cited. Headers in the caller's language; counts stay plain numbers and
 * times are hours (two decimals) so a spreadsheet reads them; written through the audit export's formula-safe writer.
 */

type Cell = string | number | null;
// next-intl's translators are typed by key; the keys here are built from names, so they are read loosely.
type Translate = (key: string, values?: Record<string, string>) => string;

const COUNT_COLUMNS = ["decided", "approved", "reproved"] as const;
const LATER_COLUMNS = ["slaMet", "disagreeingConfirmations", "escalations", "reverifications", "finalKnown", "contradicted"] as const;
const LATER_LABELS: Record<(typeof LATER_COLUMNS)[number], string> = {
  slaMet: "slaMet",
  disagreeingConfirmations: "disagreeing",
  escalations: "escalations",
  reverifications: "reverifications",
  finalKnown: "finalKnown",
  contradicted: "contradicted",
};

const hours = (value: number | null) => (value === null ? null : Math.round((value / 3600) * 100) / 100);

function figureCells(figures: AnalyticsFigures, reasons: string[]): Cell[] {
  const times = (summary: DurationSummary) => [hours(summary.median), hours(summary.p90)];
  return [
    ...COUNT_COLUMNS.map((column) => figures[column]),
    ...times(figures.toRecommendation),
    ...times(figures.toConfirmation),
    ...LATER_COLUMNS.map((column) => figures[column]),
    ...reasons.map((reason) => figures.reasons[reason] ?? 0),
  ];
}

export async function analyticsCsv(analytics: TeamAnalytics, locale: Locale): Promise<{ header: Cell[]; rows: Cell[][] }> {
  const messages = await loadMessages(locale);
  const t = createTranslator({ locale, messages, namespace: "analytics" }) as unknown as Translate;
  const reasonLabel = createTranslator({ locale, messages, namespace: "cases.reasons" }) as unknown as Translate & {
    has(key: string): boolean;
  };
  const reasons = citedReasons(analytics.team.reasons);
  const inHours = (column: string) => t("export.hours", { column: t(`columns.${column}`) });
  const header: Cell[] = [
    t("members.member"),
    ...COUNT_COLUMNS.map((column) => t(`columns.${column}`)),
    ...["toRecommendationMedian", "toRecommendationP90", "toConfirmationMedian", "toConfirmationP90"].map(inHours),
    ...LATER_COLUMNS.map((column) => t(`columns.${LATER_LABELS[column]}`)),
    ...reasons.map((reason) => (reasonLabel.has(reason) ? reasonLabel(reason) : reason)),
    t("columns.automaticEscalations"),
  ];
  const rows: Cell[][] = [
    ...analytics.members.map((member) => [member.name, ...figureCells(member, reasons), null]),
    [t("team"), ...figureCells(analytics.team, reasons), analytics.team.automaticEscalations],
  ];
  return { header, rows };
}

/** The CSV as a stream, BOM first, and its file name. */
export async function analyticsCsvFile(
  analytics: TeamAnalytics,
  locale: Locale,
): Promise<{ filename: string; rows: number; stream: ReadableStream<Uint8Array> }> {
  const csv = await analyticsCsv(analytics, locale);
  async function* batches() {
    yield csv.rows;
  }
  const stream = csvRowStream(`\uFEFF${csvRecord(csv.header)}`, batches(), csvRecord);
  return { filename: `team-${analytics.period.from}-${analytics.period.to}.csv`, rows: csv.rows.length, stream };
}
