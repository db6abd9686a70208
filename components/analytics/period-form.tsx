import { getTranslations } from "next-intl/server";

import { PeriodFieldsForm } from "@/components/ui/period-fields-form";
import { MAX_ANALYTICS_DAYS } from "@/lib/analytics/period";

/**
 * The period, sent to the page's own address, so the connection its address names stays. A refused period comes
 * back with the values as typed.
 */
export async function AnalyticsPeriodForm({ from, to, timeZone }: { from?: string; to?: string; timeZone: string }) {
  const t = await getTranslations("analytics.period");
  return (
    <PeriodFieldsForm
      idPrefix="analytics-period"
      from={from}
      to={to}
      labels={{ from: t("from"), to: t("to"), apply: t("apply"), hint: t("hint", { max: MAX_ANALYTICS_DAYS, timeZone }) }}
    />
  );
}
