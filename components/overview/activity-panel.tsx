import { getLocale, getTranslations } from "next-intl/server";

import { Legend, StackedBarChart } from "@/components/ui/charts";
import { dayFormatter, numberFormatter } from "@/components/ui/formatters";
import { ReportSection } from "@/components/ui/report-section";
import { activityColumns, type AuditActivity } from "@/lib/overview/activity";
import type { OverviewPeriod } from "@/lib/overview/period";

import { auditHref, SERIES_COLORS } from "./format";
import { CsvDownloadLink, NumberLink } from "./section";

const TH = "px-2 py-1.5 text-left text-xs font-semibold text-slate-700";
const TD = "px-2 py-1.5 text-sm tabular-nums";

/**
 * Lookups and exports per day, from the audit trail. The numbers link to the audit log, which only
 * admins may open; analysts see the same numbers without links.
 */
export async function ActivityPanel({
  activity,
  linkToAudit,
  period,
}: {
  activity: AuditActivity;
  linkToAudit: boolean;
  period: OverviewPeriod;
}) {
  const t = await getTranslations("overview.activity");
  const locale = await getLocale();
  const n = numberFormatter(locale);
  const short = dayFormatter(locale, "short");
  const long = dayFormatter(locale, "long");
  const columns = activityColumns(activity, t);
  const series = columns.map(({ action, label }, index) => ({
    key: action,
    label,
    color: SERIES_COLORS[index % SERIES_COLORS.length]!,
    values: activity.days.map((day) => day.counts[action] ?? 0),
  }));
  const from = activity.days[0]?.day ?? "";
  const to = activity.days.at(-1)?.day ?? "";
  const number = (value: number, action: string, first: string, last: string) =>
    linkToAudit ? <NumberLink href={auditHref(action, first, last)}>{n(value)}</NumberLink> : n(value);

  return (
    <ReportSection
      id="activity"
      title={t("title")}
      className="lg:col-span-2"
      actions={<CsvDownloadLink table="activity" period={period} />}
    >
      {columns.length === 0 ? (
        <p className="text-sm text-slate-600">{t("none")}</p>
      ) : (
        <>
          <Legend series={series} />
          <StackedBarChart labels={activity.days.map((day) => short(day.day))} series={series} formatNumber={n} />
          <div
            className="max-h-96 overflow-auto print:max-h-none print:overflow-visible"
            tabIndex={0}
            role="region"
            aria-label={t("caption")}
          >
            <table className="w-full border-collapse">
              <caption className="sr-only">{t("caption")}</caption>
              <thead className="sticky top-0 border-b border-slate-200 bg-white">
                <tr>
                  <th scope="col" className={TH}>
                    {t("day")}
                  </th>
                  {columns.map(({ action, label }) => (
                    <th key={action} scope="col" className={`${TH} text-right`}>
                      {label}
                    </th>
                  ))}
                </tr>
              </thead>
              <tbody className="divide-y divide-slate-100">
                {activity.days.map((day) => (
                  <tr key={day.day} data-day={day.day}>
                    <th scope="row" className={`${TD} text-left font-normal whitespace-nowrap`}>
                      {long(day.day)}
                    </th>
                    {columns.map(({ action }) => (
                      <td key={action} className={`${TD} text-right`} data-action={action}>
                        {number(day.counts[action] ?? 0, action, day.day, day.day)}
                      </td>
                    ))}
                  </tr>
                ))}
              </tbody>
              <tfoot className="border-t border-slate-300">
                <tr>
                  <th scope="row" className={`${TD} text-left`}>
                    {t("total")}
                  </th>
                  {columns.map(({ action, total }) => (
                    <td key={action} className={`${TD} text-right font-medium`}>
                      {number(total, action, from, to)}
                    </td>
                  ))}
                </tr>
              </tfoot>
            </table>
          </div>
          {linkToAudit ? null : <p className="text-xs text-slate-600">{t("adminOnlyLinks")}</p>}
        </>
      )}
    </ReportSection>
  );
}
