import { getLocale, getTranslations } from "next-intl/server";

import { HorizontalBarChart, Legend, StackedBarChart } from "@/components/ui/charts";
import { ColumnHead, FigureCell, FigureTable, FigureTile, RowHead, ScrollRegion } from "@/components/ui/figure-table";
import { dayFormatter, numberFormatter, percentFormatter } from "@/components/ui/formatters";
import { ReportSection } from "@/components/ui/report-section";
import { ratesOf, STATUSES, type KnownStatus, type VerificationCounts } from "@/lib/overview/figures";
import type { OverviewPeriod } from "@/lib/overview/period";

import { STATUS_COLORS, verificationsHref } from "./format";
import { CsvDownloadLink, NumberLink } from "./section";

/** The period's verifications by status, and the approval, review and reproval rates. */
export async function StatusPanel({ counts, period }: { counts: VerificationCounts; period: OverviewPeriod }) {
  const t = await getTranslations("overview");
  const status = await getTranslations("verifications.status");
  const locale = await getLocale();
  const n = numberFormatter(locale);
  const pct = percentFormatter(locale);
  const range = { from: period.from, to: period.to };
  const rates = ratesOf(counts.byStatus);
  const analysedHref = verificationsHref({ ...range, status: ["approved", "review", "reproved"] });
  const rows: Array<{ key: KnownStatus | "other"; label: string; value: number; href?: string }> = STATUSES.map((key) => ({
    key,
    label: status(key),
    value: counts.byStatus[key],
    href: verificationsHref({ ...range, status: [key] }),
  }));
  if (counts.other > 0) rows.push({ key: "other", label: t("byStatus.other"), value: counts.other });
  const share = (value: number) => (counts.total === 0 ? null : value / counts.total);

  return (
    <>
      <ReportSection id="rates" title={t("rates.title")} actions={<CsvDownloadLink table="rates" period={period} />}>
        <dl className="grid grid-cols-2 gap-3 sm:grid-cols-4">
          <FigureTile label={t("rates.total")}>
            <dd className="mt-1 text-2xl">
              <NumberLink href={verificationsHref(range)}>{n(counts.total)}</NumberLink>
            </dd>
          </FigureTile>
          {(["approval", "review", "reproval"] as const).map((rate) => {
            const statusKey = rate === "approval" ? "approved" : rate === "review" ? "review" : "reproved";
            return (
              <FigureTile key={rate} label={t(`rates.${rate}`)}>
                <dd className="mt-1 text-2xl font-semibold text-slate-900 tabular-nums" data-rate={rate}>
                  {pct(rates[rate])}
                </dd>
                <dd className="text-xs text-slate-600">
                  {t.rich("rates.of", {
                    count: n(counts.byStatus[statusKey]),
                    total: n(rates.analysed),
                    part: (chunk) => <NumberLink href={verificationsHref({ ...range, status: [statusKey] })}>{chunk}</NumberLink>,
                    whole: (chunk) => <NumberLink href={analysedHref}>{chunk}</NumberLink>,
                  })}
                </dd>
              </FigureTile>
            );
          })}
        </dl>
        <p className="text-xs text-slate-600">{t("rates.explain")}</p>
      </ReportSection>

      <ReportSection id="by-status" title={t("byStatus.title")} actions={<CsvDownloadLink table="by_status" period={period} />}>
        <HorizontalBarChart rows={rows.map((row) => ({ ...row, color: STATUS_COLORS[row.key] }))} formatNumber={n} />
        <FigureTable
          caption={t("byStatus.caption", { from: period.from, to: period.to })}
          narrow
          head={
            <>
              <ColumnHead>{t("byStatus.status")}</ColumnHead>
              <ColumnHead numeric>{t("byStatus.count")}</ColumnHead>
              <ColumnHead numeric>{t("byStatus.share")}</ColumnHead>
            </>
          }
          foot={
            <>
              <RowHead total>{t("byStatus.total")}</RowHead>
              <FigureCell>
                <NumberLink href={verificationsHref(range)}>{n(counts.total)}</NumberLink>
              </FigureCell>
              <FigureCell>{pct(counts.total === 0 ? null : 1)}</FigureCell>
            </>
          }
        >
          {rows.map((row) => (
            <tr key={row.key} data-status={row.key}>
              <RowHead>{row.label}</RowHead>
              <FigureCell>{row.href ? <NumberLink href={row.href}>{n(row.value)}</NumberLink> : n(row.value)}</FigureCell>
              <FigureCell>{pct(share(row.value))}</FigureCell>
            </tr>
          ))}
        </FigureTable>
      </ReportSection>
    </>
  );
}

/** Verifications per day, stacked by status, with the day-by-status table. */
export async function DailyPanel({ counts, period }: { counts: VerificationCounts; period: OverviewPeriod }) {
  const t = await getTranslations("overview");
  const status = await getTranslations("verifications.status");
  const locale = await getLocale();
  const n = numberFormatter(locale);
  const short = dayFormatter(locale, "short");
  const long = dayFormatter(locale, "long");
  const series = STATUSES.map((key) => ({
    key,
    label: status(key),
    color: STATUS_COLORS[key],
    values: counts.days.map((day) => day.byStatus[key]),
  }));
  return (
    <ReportSection
      id="daily"
      title={t("daily.title")}
      className="lg:col-span-2"
      actions={<CsvDownloadLink table="daily" period={period} />}
    >
      <Legend series={series} />
      <StackedBarChart labels={counts.days.map((day) => short(day.day))} series={series} formatNumber={n} />
      <ScrollRegion label={t("daily.caption")} tall>
        <FigureTable
          caption={t("daily.caption")}
          sticky
          head={
            <>
              <ColumnHead>{t("daily.day")}</ColumnHead>
              {STATUSES.map((key) => (
                <ColumnHead key={key} numeric>
                  {status(key)}
                </ColumnHead>
              ))}
              <ColumnHead numeric>{t("daily.total")}</ColumnHead>
            </>
          }
        >
          {counts.days.map((day) => (
            <tr key={day.day} data-day={day.day}>
              <RowHead className="whitespace-nowrap">{long(day.day)}</RowHead>
              {STATUSES.map((key) => (
                <FigureCell key={key}>
                  <NumberLink href={verificationsHref({ status: [key], from: day.day, to: day.day })}>{n(day.byStatus[key])}</NumberLink>
                </FigureCell>
              ))}
              <FigureCell total>
                <NumberLink href={verificationsHref({ from: day.day, to: day.day })}>{n(day.total)}</NumberLink>
              </FigureCell>
            </tr>
          ))}
        </FigureTable>
      </ScrollRegion>
    </ReportSection>
  );
}
