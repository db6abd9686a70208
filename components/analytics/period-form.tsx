import { getTranslations } from "next-intl/server";

import { BareButton } from "@/components/ui/button";
import { MAX_ANALYTICS_DAYS } from "@/lib/analytics/period";

/**
 * The period as a plain GET form (no client JavaScript) sent to the page's own address, so the connection its
 * address names stays. A refused period comes back with the values as typed.
 */
export async function AnalyticsPeriodForm({ from, to, timeZone }: { from?: string; to?: string; timeZone: string }) {
  const t = await getTranslations("analytics.period");
  return (
    <form method="get" className="flex flex-wrap items-end gap-3 print:hidden" aria-describedby="analytics-period-hint">
      <DateInput name="from" label={t("from")} value={from} />
      <DateInput name="to" label={t("to")} value={to} />
      <BareButton
        type="submit"
        withoutScript
        className="rounded-md bg-brand-700 px-3 py-1.5 text-sm font-medium text-white hover:bg-brand-800"
      >
        {t("apply")}
      </BareButton>
      <p id="analytics-period-hint" className="w-full text-xs text-slate-600">
        {t("hint", { max: MAX_ANALYTICS_DAYS, timeZone })}
      </p>
    </form>
  );
}

function DateInput({ name, label, value }: { name: "from" | "to"; label: string; value: string | undefined }) {
  return (
    <div className="flex flex-col">
      <label htmlFor={`analytics-${name}`} className="text-xs font-medium text-slate-700">
        {label}
      </label>
      <input
        id={`analytics-${name}`}
        name={name}
        type="date"
        defaultValue={value}
        required
        className="rounded-md border border-slate-300 px-2 py-1.5 text-sm"
      />
    </div>
  );
}
