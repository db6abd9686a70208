import { getLocale, getTranslations } from "next-intl/server";

import { HorizontalBarChart } from "@/components/ui/charts";
import { ColumnHead, FigureCell, FigureTable, FigureTile, RowHead, ScrollRegion } from "@/components/ui/figure-table";
import { dayFormatter, numberFormatter } from "@/components/ui/formatters";
import { ReportSection } from "@/components/ui/report-section";
import { analyticsCsvHref } from "@/lib/analytics/period";
import { citedReasons } from "@/lib/analytics/reasons";
import type { AnalyticsFigures, TeamAnalytics } from "@/lib/analytics/types";
import { apiInConnection } from "@/lib/shared/connection-path";

import { AnalyticsPeriodForm } from "./period-form";

const BAR_COLOR = "#0369a1";
const HOUR = 3600;

/** A duration in seconds as minutes, hours or days, whichever reads best. */
function durationFormatter(locale: string, t: (key: "none" | "minutes" | "hours" | "days", values?: { value: string }) => string) {
  const whole = new Intl.NumberFormat(locale, { maximumFractionDigits: 0 });
  const one = new Intl.NumberFormat(locale, { maximumFractionDigits: 1 });
  return (seconds: number | null) => {
    if (seconds === null) return t("none");
    if (seconds < HOUR) return t("minutes", { value: whole.format(seconds / 60) });
    if (seconds < 48 * HOUR) return t("hours", { value: one.format(seconds / HOUR) });
    return t("days", { value: one.format(seconds / (24 * HOUR)) });
  };
}

/** A member's name short enough for the chart's label column (the table gives it whole). */
const chartLabel = (name: string) => (name.length > 18 ? `${name.slice(0, 17)}…` : name);

const COLUMNS = [
  "decided",
  "approved",
  "reproved",
  "toRecommendationMedian",
  "toRecommendationP90",
  "toConfirmationMedian",
  "toConfirmationP90",
  "slaMet",
  "disagreeing",
  "escalations",
  "reverifications",
  "finalKnown",
  "contradicted",
] as const;

type Column = (typeof COLUMNS)[number];
type Formats = { n: (value: number) => string; duration: (seconds: number | null) => string };

function cellsOf(figures: AnalyticsFigures, { n, duration }: Formats): Record<Column, string> {
  return {
    decided: n(figures.decided),
    approved: n(figures.approved),
    reproved: n(figures.reproved),
    toRecommendationMedian: duration(figures.toRecommendation.median),
    toRecommendationP90: duration(figures.toRecommendation.p90),
    toConfirmationMedian: duration(figures.toConfirmation.median),
    toConfirmationP90: duration(figures.toConfirmation.p90),
    slaMet: n(figures.slaMet),
    disagreeing: n(figures.disagreeingConfirmations),
    escalations: n(figures.escalations),
    reverifications: n(figures.reverifications),
    finalKnown: n(figures.finalKnown),
    contradicted: n(figures.contradicted),
  };
}

async function formats(): Promise<Formats> {
  const locale = await getLocale();
  return { n: numberFormatter(locale), duration: durationFormatter(locale, await getTranslations("analytics.duration")) };
}

/** The team's numbers: period, headline figures, decisions per member as a chart with its table, reasons, the CSV. */
export async function TeamView({ analytics, connection }: { analytics: TeamAnalytics; connection: string }) {
  const t = await getTranslations("analytics");
  const long = dayFormatter(await getLocale(), "long");
  const { n, duration } = await formats();
  const { period, team } = analytics;
  return (
    <div className="space-y-6">
      <header className="space-y-2">
        <h1 className="text-xl font-semibold text-slate-900">{t("title")}</h1>
        <p className="text-sm text-slate-700">{t("intro")}</p>
        <p className="text-sm text-slate-700" data-testid="analytics-period">
          {t("periodLine", { from: long(period.from), to: long(period.to), days: period.days, timeZone: analytics.timeZone })}
        </p>
        <AnalyticsPeriodForm from={period.from} to={period.to} timeZone={analytics.timeZone} />
      </header>

      <dl className="grid grid-cols-2 gap-3 sm:grid-cols-4">
        <FigureTile label={t("tiles.decided")} data-figure="decided">
          <dd className="mt-1 text-2xl tabular-nums">{n(team.decided)}</dd>
        </FigureTile>
        <FigureTile label={t("tiles.slaMet")} data-figure="slaMet">
          <dd className="mt-1 text-2xl tabular-nums">{t("slaShare", { met: n(team.slaMet), decided: n(team.decided) })}</dd>
        </FigureTile>
        <FigureTile label={t("tiles.toRecommendation")} data-figure="toRecommendation">
          <dd className="mt-1 text-2xl tabular-nums">{duration(team.toRecommendation.median)}</dd>
        </FigureTile>
        <FigureTile label={t("tiles.disagreeing")} data-figure="disagreeing">
          <dd className="mt-1 text-2xl tabular-nums">{n(team.disagreeingConfirmations)}</dd>
        </FigureTile>
      </dl>

      <MembersSection analytics={analytics} csvHref={apiInConnection(analyticsCsvHref(period), connection)} />
      <ReasonsSection analytics={analytics} />

      <section aria-labelledby="analytics-notes-title" className="space-y-1 text-xs text-slate-600">
        <h2 id="analytics-notes-title" className="text-sm font-semibold text-slate-800">
          {t("notes.title")}
        </h2>
        {(["decided", "times", "sla", "history", "provider"] as const).map((key) => (
          <p key={key}>{t(`notes.${key}`)}</p>
        ))}
      </section>
    </div>
  );
}

/** Decisions per member as a chart, then every figure per member with the team's as the table's total row; the CSV. */
async function MembersSection({ analytics, csvHref }: { analytics: TeamAnalytics; csvHref: string }) {
  const t = await getTranslations("analytics");
  const format = await formats();
  const { team, members } = analytics;
  const teamCells = cellsOf(team, format);
  return (
    <ReportSection
      id="members"
      title={t("members.title")}
      actions={
        <a
          href={csvHref}
          download
          aria-label={t("downloadLabel")}
          data-export="team"
          className="text-sm font-medium text-brand-800 underline decoration-brand-600/40 underline-offset-2 hover:decoration-brand-800 print:hidden"
        >
          {t("download")}
        </a>
      }
    >
      {members.length === 0 ? (
        <p className="text-sm text-slate-600">{t("empty")}</p>
      ) : (
        <figure className="space-y-2">
          <figcaption className="text-xs text-slate-600">{t("decidedChart.caption")}</figcaption>
          <HorizontalBarChart
            rows={members.map((member) => ({
              key: member.memberId,
              label: chartLabel(member.name),
              value: member.decided,
              color: BAR_COLOR,
            }))}
            formatNumber={format.n}
          />
        </figure>
      )}
      <ScrollRegion label={t("members.caption")}>
        <FigureTable
          caption={t("members.caption")}
          head={
            <>
              <ColumnHead>{t("members.member")}</ColumnHead>
              {COLUMNS.map((column) => (
                <ColumnHead key={column} numeric>
                  {t(`columns.${column}`)}
                </ColumnHead>
              ))}
            </>
          }
          foot={
            <>
              <RowHead total>{t("team")}</RowHead>
              {COLUMNS.map((column) => (
                <FigureCell key={column} total data-column={column}>
                  {teamCells[column]}
                </FigureCell>
              ))}
            </>
          }
        >
          {members.map((member) => {
            const row = cellsOf(member, format);
            return (
              <tr key={member.memberId} data-member={member.memberId}>
                <RowHead>{member.name}</RowHead>
                {COLUMNS.map((column) => (
                  <FigureCell key={column} data-column={column}>
                    {row[column]}
                  </FigureCell>
                ))}
              </tr>
            );
          })}
        </FigureTable>
      </ScrollRegion>
      <p className="text-sm text-slate-700" data-figure="automaticEscalations">
        {t("automaticLine", { count: team.automaticEscalations })}
      </p>
    </ReportSection>
  );
}

/** The reasons cited: the team's as a chart, then a table with each member's beside the team's. */
async function ReasonsSection({ analytics }: { analytics: TeamAnalytics }) {
  const t = await getTranslations("analytics");
  const reasonLabels = await getTranslations("cases.reasons");
  const { n } = await formats();
  const { team, members } = analytics;
  const reasons = citedReasons(team.reasons);
  const label = (reason: string) => (reasonLabels.has(reason as "other") ? reasonLabels(reason as "other") : reason);
  return (
    <ReportSection id="reasons" title={t("reasons.title")}>
      {reasons.length === 0 ? (
        <p className="text-sm text-slate-600">{t("reasons.none")}</p>
      ) : (
        <>
          <HorizontalBarChart
            rows={reasons.map((reason) => ({
              key: reason,
              label: chartLabel(label(reason)),
              value: team.reasons[reason] ?? 0,
              color: BAR_COLOR,
            }))}
            formatNumber={n}
          />
          <ScrollRegion label={t("reasons.caption")}>
            <FigureTable
              caption={t("reasons.caption")}
              head={
                <>
                  <ColumnHead>{t("reasons.reason")}</ColumnHead>
                  <ColumnHead numeric>{t("team")}</ColumnHead>
                  {members.map((member) => (
                    <ColumnHead key={member.memberId} numeric>
                      {member.name}
                    </ColumnHead>
                  ))}
                </>
              }
            >
              {reasons.map((reason) => (
                <tr key={reason} data-reason={reason}>
                  <RowHead>{label(reason)}</RowHead>
                  <FigureCell total>{n(team.reasons[reason] ?? 0)}</FigureCell>
                  {members.map((member) => (
                    <FigureCell key={member.memberId}>{n(member.reasons[reason] ?? 0)}</FigureCell>
                  ))}
                </tr>
              ))}
            </FigureTable>
          </ScrollRegion>
        </>
      )}
    </ReportSection>
  );
}
