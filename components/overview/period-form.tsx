import { getTranslations } from "next-intl/server";

import { PeriodFieldsForm } from "@/components/ui/period-fields-form";
import { MAX_PERIOD_DAYS, PERIOD_PRESETS } from "@/lib/overview/period";

/**
 * The period: preset links and a plain GET form (no client JavaScript). A refused period comes back with the values
 * as typed.
 */
export async function PeriodForm({ from, to, preset, timeZone }: { from?: string; to?: string; preset: number | null; timeZone: string }) {
  const t = await getTranslations("overview.period");
  return (
    <div className="flex flex-wrap items-end gap-4 print:hidden">
      <nav aria-label={t("presets")}>
        <ul className="flex gap-1">
          {PERIOD_PRESETS.map((days) => {
            const current = preset === days;
            return (
              <li key={days}>
                <a
                  href={`/?days=${days}`}
                  aria-current={current ? "page" : undefined}
                  className={`block rounded-md px-3 py-2 text-sm font-medium ${current ? "bg-brand-50 text-brand-800 ring-1 ring-brand-600/40" : "text-slate-700 hover:bg-slate-100"}`}
                >
                  {t("lastDays", { days })}
                </a>
              </li>
            );
          })}
        </ul>
      </nav>
      <PeriodFieldsForm
        idPrefix="period"
        action="/"
        from={from}
        to={to}
        labels={{ from: t("from"), to: t("to"), apply: t("apply"), hint: t("hint", { max: MAX_PERIOD_DAYS, timeZone }) }}
      />
    </div>
  );
}
