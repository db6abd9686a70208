import { getLocale, getTranslations } from "next-intl/server";

import { Legend, StackedBarChart } from "@/components/ui/charts";
import { ColumnHead, FigureCell, FigureTable, RowHead, ScrollRegion, TextCell } from "@/components/ui/figure-table";
import { dayFormatter, numberFormatter } from "@/components/ui/formatters";
import { ReportSection } from "@/components/ui/report-section";
import type { UpstreamCallsReport } from "@/lib/integrations/types";

// At least 3:1 against white (the overview's chart colours).
const API_COLORS = { core: "#0369a1", partners: "#b45309" } as const;

/**
 * The service's calls this week (the provider key's quota): calls per day by API as a chart, and the same week
 * per route or job and operation as a table, today beside it. Drawn on the server, like the overview's charts.
 */
export async function UpstreamCallsSection({ report }: { report: UpstreamCallsReport }) {
  const t = await getTranslations("integrations.upstreamCalls");
  const locale = await getLocale();
  const n = numberFormatter(locale);
  const short = dayFormatter(locale, "short");
  const long = dayFormatter(locale, "long");
  const series = (["core", "partners"] as const).map((key) => ({
    key,
    label: t(`api.${key}`),
    color: API_COLORS[key],
    values: report.days.map((day) => day[key]),
  }));
  return (
    <ReportSection id="upstream-calls" title={t("title")}>
      <p className="text-sm text-slate-700">
        {t("summary", { today: n(report.totals.today), week: n(report.totals.week), from: long(report.weekFrom), to: long(report.today) })}
      </p>
      <Legend series={series} />
      <StackedBarChart labels={report.days.map((day) => short(day.day))} series={series} formatNumber={n} />
      <ScrollRegion label={t("caption")}>
        <FigureTable
          caption={t("caption")}
          head={
            <>
              <ColumnHead>{t("source")}</ColumnHead>
              <ColumnHead>{t("kind")}</ColumnHead>
              <ColumnHead numeric>{t("today")}</ColumnHead>
              <ColumnHead numeric>{t("week")}</ColumnHead>
            </>
          }
          foot={
            <>
              <RowHead colSpan={2} total>
                {t("total")}
              </RowHead>
              <FigureCell total>{n(report.totals.today)}</FigureCell>
              <FigureCell total>{n(report.totals.week)}</FigureCell>
            </>
          }
        >
          {report.rows.length === 0 ? (
            <tr>
              <TextCell colSpan={4} className="text-slate-600">
                {t("none")}
              </TextCell>
            </tr>
          ) : (
            report.rows.map((row) => (
              <tr key={`${row.source} ${row.kind}`}>
                <RowHead className="break-all">
                  <code>{row.source}</code>
                </RowHead>
                <TextCell className="break-all">
                  <code>{row.kind}</code>
                </TextCell>
                <FigureCell>{n(row.today)}</FigureCell>
                <FigureCell>{n(row.week)}</FigureCell>
              </tr>
            ))
          )}
        </FigureTable>
      </ScrollRegion>
      <p className="text-xs text-slate-600">{t("note")}</p>
    </ReportSection>
  );
}
