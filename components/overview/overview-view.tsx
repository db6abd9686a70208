import { getLocale, getTranslations } from "next-intl/server";

import { dayFormatter } from "@/components/ui/formatters";
import { ReportSection } from "@/components/ui/report-section";
import type { Overview } from "@/lib/overview/types";

import { ActivityPanel } from "./activity-panel";
import { BacklogPanel, OutcomesPanel } from "./case-panels";
import { PeriodForm } from "./period-form";
import { PanelError } from "./section";
import { DailyPanel, StatusPanel } from "./verification-panels";

const KNOWN_ERRORS = [
  "upstream_ip_not_allowed",
  "upstream_forbidden",
  "upstream_unauthorized",
  "upstream_unavailable",
  "upstream_rate_limited",
];

/** The overview page's body: period, then each panel, each standing alone when another fails. */
export async function OverviewView({ overview, timeZone, linkToAudit }: { overview: Overview; timeZone: string; linkToAudit: boolean }) {
  const t = await getTranslations("overview");
  const long = dayFormatter(await getLocale(), "long");
  const errorBody = (code: string) => t(`errors.${KNOWN_ERRORS.includes(code) ? code : "generic"}`);
  const { period, verifications, cases, activity } = overview;
  return (
    <div className="space-y-6">
      <header className="space-y-2">
        <h1 className="text-xl font-semibold text-slate-900">{t("title")}</h1>
        <p className="text-sm text-slate-700" data-testid="overview-period">
          {t("periodLine", { from: long(period.from), to: long(period.to), days: period.days.length, timeZone })}
        </p>
        <PeriodForm from={period.from} to={period.to} preset={period.preset} timeZone={timeZone} />
      </header>

      {/* grid-cols-1 is minmax(0, 1fr): a panel never grows to its widest table (on a phone the overview was 539 px wide). */}
      <div className="grid grid-cols-1 gap-6 lg:grid-cols-2 print:block print:space-y-4">
        {verifications.ok ? (
          <>
            <StatusPanel counts={verifications.data} period={period} />
            <DailyPanel counts={verifications.data} period={period} />
          </>
        ) : (
          <ReportSection id="verifications" title={t("byStatus.title")} className="lg:col-span-2">
            <PanelError title={t("errors.verificationsTitle")} body={errorBody(verifications.code)} />
          </ReportSection>
        )}
        {cases.ok ? (
          <>
            <BacklogPanel figures={cases.data} period={period} />
            <OutcomesPanel figures={cases.data} period={period} />
          </>
        ) : (
          <ReportSection id="cases" title={t("cases.backlogTitle")} className="lg:col-span-2">
            <PanelError title={t("errors.casesTitle")} body={t("cases.unavailable")} />
          </ReportSection>
        )}
        {activity.ok ? (
          <ActivityPanel activity={activity.data} linkToAudit={linkToAudit} period={period} />
        ) : (
          <ReportSection id="activity" title={t("activity.title")} className="lg:col-span-2">
            <PanelError title={t("errors.activityTitle")} body={errorBody(activity.code)} />
          </ReportSection>
        )}
      </div>
      <p className="text-xs text-slate-600">{t("countingNote")}</p>
    </div>
  );
}
