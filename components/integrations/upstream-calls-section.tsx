import { getLocale, getTranslations } from "next-intl/server";

import { Legend, StackedBarChart } from "@/components/ui/charts";
import { dayFormatter, numberFormatter } from "@/components/ui/formatters";
import { ReportSection } from "@/components/ui/report-section";
import type { UpstreamCallsReport } from "@/lib/integrations/types";

const TH = "px-2 py-1.5 text-left text-xs font-semibold text-slate-700";
const TD = "px-2 py-1.5 text-sm tabular-nums";

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
      <div className="overflow-x-auto" tabIndex={0} role="region" aria-label={t("caption")}>
        <table className="w-full border-collapse">
          <caption className="sr-only">{t("caption")}</caption>
          <thead className="border-b border-slate-200">
            <tr>
              <th scope="col" className={TH}>
                {t("source")}
              </th>
              <th scope="col" className={TH}>
                {t("kind")}
              </th>
              <th scope="col" className={`${TH} text-right`}>
                {t("today")}
              </th>
              <th scope="col" className={`${TH} text-right`}>
                {t("week")}
              </th>
            </tr>
          </thead>
          <tbody className="divide-y divide-slate-100">
            {report.rows.length === 0 ? (
              <tr>
                <td colSpan={4} className={`${TD} text-slate-600`}>
                  {t("none")}
                </td>
              </tr>
            ) : (
              report.rows.map((row) => (
                <tr key={`${row.source} ${row.kind}`}>
                  <th scope="row" className={`${TD} text-left font-normal break-all`}>
                    <code>{row.source}</code>
                  </th>
                  <td className={`${TD} break-all`}>
                    <code>{row.kind}</code>
                  </td>
                  <td className={`${TD} text-right`}>{n(row.today)}</td>
                  <td className={`${TD} text-right`}>{n(row.week)}</td>
                </tr>
              ))
            )}
          </tbody>
          <tfoot className="border-t border-slate-300">
            <tr>
              <th scope="row" colSpan={2} className={`${TD} text-left`}>
                {t("total")}
              </th>
              <td className={`${TD} text-right font-medium`}>{n(report.totals.today)}</td>
              <td className={`${TD} text-right font-medium`}>{n(report.totals.week)}</td>
            </tr>
          </tfoot>
        </table>
      </div>
      <p className="text-xs text-slate-600">{t("note")}</p>
    </ReportSection>
  );
}
