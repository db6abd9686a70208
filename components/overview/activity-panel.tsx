import { getLocale, getTranslations } from "next-intl/server";

import { Legend, StackedBarChart } from "@/components/ui/charts";
import { ColumnHead, FigureCell, FigureTable, RowHead, ScrollRegion } from "@/components/ui/figure-table";
import { dayFormatter, numberFormatter } from "@/components/ui/formatters";
import { ReportSection } from "@/components/ui/report-section";
import { activityColumns, type AuditActivity } from "@/lib/overview/activity";
import type { OverviewPeriod } from "@/lib/overview/period";

import { auditHref, SERIES_COLORS } from "./format";
import { CsvDownloadLink, NumberLink } from "./section";

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
          <ScrollRegion label={t("caption")} tall>
            <FigureTable
              caption={t("caption")}
              sticky
              head={
                <>
                  <ColumnHead>{t("day")}</ColumnHead>
                  {columns.map(({ action, label }) => (
                    <ColumnHead key={action} numeric>
                      {label}
                    </ColumnHead>
                  ))}
                </>
              }
              foot={
                <>
                  <RowHead total>{t("total")}</RowHead>
                  {columns.map(({ action, total }) => (
                    <FigureCell key={action} total>
                      {number(total, action, from, to)}
                    </FigureCell>
                  ))}
                </>
              }
            >
              {activity.days.map((day) => (
                <tr key={day.day} data-day={day.day}>
                  <RowHead className="whitespace-nowrap">{long(day.day)}</RowHead>
                  {columns.map(({ action }) => (
                    <FigureCell key={action} data-action={action}>
                      {number(day.counts[action] ?? 0, action, day.day, day.day)}
                    </FigureCell>
                  ))}
                </tr>
              ))}
            </FigureTable>
          </ScrollRegion>
          {linkToAudit ? null : <p className="text-xs text-slate-600">{t("adminOnlyLinks")}</p>}
        </>
      )}
    </ReportSection>
  );
}
