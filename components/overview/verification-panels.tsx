import { getLocale, getTranslations } from "next-intl/server";

import { HorizontalBarChart, Legend, StackedBarChart } from "@/components/ui/charts";
import { dayFormatter, numberFormatter, percentFormatter } from "@/components/ui/formatters";
import { ReportSection } from "@/components/ui/report-section";
import { ratesOf, STATUSES, type KnownStatus, type VerificationCounts } from "@/lib/overview/figures";
import type { OverviewPeriod } from "@/lib/overview/period";

import { STATUS_COLORS, verificationsHref } from "./format";
import { CsvDownloadLink, NumberLink } from "./section";

const TH = "px-2 py-1.5 text-left text-xs font-semibold text-slate-700";
const TD = "px-2 py-1.5 text-sm tabular-nums";

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
          <div className="rounded-md bg-slate-50 p-3 print:border print:border-slate-300">
            <dt className="text-xs font-medium text-slate-600">{t("rates.total")}</dt>
            <dd className="mt-1 text-2xl">
              <NumberLink href={verificationsHref(range)}>{n(counts.total)}</NumberLink>
            </dd>
          </div>
          {(["approval", "review", "reproval"] as const).map((rate) => {
            const statusKey = rate === "approval" ? "approved" : rate === "review" ? "review" : "reproved";
            return (
              <div key={rate} className="rounded-md bg-slate-50 p-3 print:border print:border-slate-300">
                <dt className="text-xs font-medium text-slate-600">{t(`rates.${rate}`)}</dt>
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
              </div>
            );
          })}
        </dl>
        <p className="text-xs text-slate-600">{t("rates.explain")}</p>
      </ReportSection>

      <ReportSection id="by-status" title={t("byStatus.title")} actions={<CsvDownloadLink table="by_status" period={period} />}>
        <HorizontalBarChart rows={rows.map((row) => ({ ...row, color: STATUS_COLORS[row.key] }))} formatNumber={n} />
        <table className="w-full max-w-xl border-collapse">
          <caption className="sr-only">{t("byStatus.caption", { from: period.from, to: period.to })}</caption>
          <thead className="border-b border-slate-200">
            <tr>
              <th scope="col" className={TH}>
                {t("byStatus.status")}
              </th>
              <th scope="col" className={`${TH} text-right`}>
                {t("byStatus.count")}
              </th>
              <th scope="col" className={`${TH} text-right`}>
                {t("byStatus.share")}
              </th>
            </tr>
          </thead>
          <tbody className="divide-y divide-slate-100">
            {rows.map((row) => (
              <tr key={row.key} data-status={row.key}>
                <th scope="row" className={`${TD} text-left font-normal`}>
                  {row.label}
                </th>
                <td className={`${TD} text-right`}>{row.href ? <NumberLink href={row.href}>{n(row.value)}</NumberLink> : n(row.value)}</td>
                <td className={`${TD} text-right`}>{pct(share(row.value))}</td>
              </tr>
            ))}
          </tbody>
          <tfoot className="border-t border-slate-300">
            <tr>
              <th scope="row" className={`${TD} text-left`}>
                {t("byStatus.total")}
              </th>
              <td className={`${TD} text-right`}>
                <NumberLink href={verificationsHref(range)}>{n(counts.total)}</NumberLink>
              </td>
              <td className={`${TD} text-right`}>{pct(counts.total === 0 ? null : 1)}</td>
            </tr>
          </tfoot>
        </table>
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
      <div
        className="max-h-96 overflow-auto print:max-h-none print:overflow-visible"
        tabIndex={0}
        role="region"
        aria-label={t("daily.caption")}
      >
        <table className="w-full border-collapse">
          <caption className="sr-only">{t("daily.caption")}</caption>
          <thead className="sticky top-0 border-b border-slate-200 bg-white">
            <tr>
              <th scope="col" className={TH}>
                {t("daily.day")}
              </th>
              {STATUSES.map((key) => (
                <th key={key} scope="col" className={`${TH} text-right`}>
                  {status(key)}
                </th>
              ))}
              <th scope="col" className={`${TH} text-right`}>
                {t("daily.total")}
              </th>
            </tr>
          </thead>
          <tbody className="divide-y divide-slate-100">
            {counts.days.map((day) => (
              <tr key={day.day} data-day={day.day}>
                <th scope="row" className={`${TD} text-left font-normal whitespace-nowrap`}>
                  {long(day.day)}
                </th>
                {STATUSES.map((key) => (
                  <td key={key} className={`${TD} text-right`}>
                    <NumberLink href={verificationsHref({ status: [key], from: day.day, to: day.day })}>{n(day.byStatus[key])}</NumberLink>
                  </td>
                ))}
                <td className={`${TD} text-right font-medium`}>
                  <NumberLink href={verificationsHref({ from: day.day, to: day.day })}>{n(day.total)}</NumberLink>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </ReportSection>
  );
}
