import { getLocale, getTranslations } from "next-intl/server";

import { HorizontalBarChart } from "@/components/ui/charts";
import { ColumnHead, FigureCell, FigureTable, FigureTile, RowHead } from "@/components/ui/figure-table";
import { numberFormatter } from "@/components/ui/formatters";
import { ReportSection } from "@/components/ui/report-section";
import { AGE_BUCKETS, RECOMMENDATIONS } from "@/lib/cases/rules";
import { outcomeMatrix, type CaseFigures } from "@/lib/overview/cases";
import type { OverviewPeriod } from "@/lib/overview/period";
// Each number opens exactly the cases it counts in the queue (lib/overview/queue-links.ts).
import { casesOfAgeHref, closedCasesHref, openCasesHref, overdueCasesHref } from "@/lib/overview/queue-links";

import { CsvDownloadLink, NumberLink } from "./section";

const BUCKET_COLORS = ["#0369a1", "#b45309", "#c2410c", "#b91c1c"];

/** The open review backlog by age and the SLA, from case work. */
export async function BacklogPanel({ figures, period }: { figures: CaseFigures; period: OverviewPeriod }) {
  const t = await getTranslations("overview.cases");
  const n = numberFormatter(await getLocale());
  const rows = AGE_BUCKETS.map((bucket, index) => ({
    key: bucket,
    label: t(`buckets.${bucket}`),
    value: figures.backlog[bucket],
    color: BUCKET_COLORS[index]!,
  }));
  return (
    <ReportSection
      id="backlog"
      title={t("backlogTitle")}
      actions={
        <>
          <CsvDownloadLink table="backlog" period={period} />
          <CsvDownloadLink table="sla" period={period} />
        </>
      }
    >
      <dl className="grid grid-cols-2 gap-3 sm:grid-cols-4">
        {(
          [
            ["open", figures.open, openCasesHref()],
            ["overdue", figures.overdue, overdueCasesHref()],
            ["closedInPeriod", figures.closedInPeriod, closedCasesHref(figures.closedRange)],
            ["closedLate", figures.closedLate, closedCasesHref(figures.closedRange, { late: true })],
          ] as const
        ).map(([key, value, href]) => (
          <FigureTile key={key} label={t(key)} data-figure={key}>
            <dd className="mt-1 text-2xl">
              <NumberLink href={href}>{n(value)}</NumberLink>
            </dd>
          </FigureTile>
        ))}
      </dl>
      <HorizontalBarChart rows={rows} formatNumber={n} />
      <FigureTable
        caption={t("backlogCaption")}
        narrow
        head={
          <>
            <ColumnHead>{t("age")}</ColumnHead>
            <ColumnHead numeric>{t("openCases")}</ColumnHead>
          </>
        }
      >
        {rows.map((row) => (
          <tr key={row.key} data-bucket={row.key}>
            <RowHead>{row.label}</RowHead>
            <FigureCell>
              <NumberLink href={casesOfAgeHref(row.key)}>{n(row.value)}</NumberLink>
            </FigureCell>
          </tr>
        ))}
      </FigureTable>
    </ReportSection>
  );
}

/** Recommendations recorded here against the service's final status, for cases closed in the period. */
export async function OutcomesPanel({ figures, period }: { figures: CaseFigures; period: OverviewPeriod }) {
  const t = await getTranslations("overview.cases");
  const status = await getTranslations("verifications.status");
  const n = numberFormatter(await getLocale());
  const { finals, count } = outcomeMatrix(figures.outcomes);
  const statusLabel = (value: string) => (status.has(value as "approved") ? status(value as "approved") : value);
  return (
    <ReportSection id="outcomes" title={t("outcomesTitle")} actions={<CsvDownloadLink table="outcomes" period={period} />}>
      {finals.length === 0 ? (
        <p className="text-sm text-slate-600">{t("noOutcomes")}</p>
      ) : (
        <FigureTable
          caption={t("outcomesCaption")}
          shownCaption
          head={
            <>
              <ColumnHead>{t("recommendation")}</ColumnHead>
              {finals.map((finalStatus) => (
                <ColumnHead key={finalStatus} numeric>
                  {t("finalStatus", { status: statusLabel(finalStatus) })}
                </ColumnHead>
              ))}
            </>
          }
        >
          {RECOMMENDATIONS.map((recommendation) => (
            <tr key={recommendation} data-recommendation={recommendation}>
              <RowHead>{t(`recommendations.${recommendation}`)}</RowHead>
              {finals.map((finalStatus) => (
                <FigureCell key={finalStatus} data-final={finalStatus}>
                  <NumberLink href={closedCasesHref(figures.closedRange)}>{n(count(recommendation, finalStatus))}</NumberLink>
                </FigureCell>
              ))}
            </tr>
          ))}
        </FigureTable>
      )}
      <p className="text-sm text-slate-700" data-figure="disagreements">
        {t.rich("disagreements", {
          count: figures.disagreements,
          link: (chunk) => <NumberLink href={closedCasesHref(figures.closedRange, { disagreement: true })}>{chunk}</NumberLink>,
        })}
      </p>
    </ReportSection>
  );
}
