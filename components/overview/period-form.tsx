import { getTranslations } from "next-intl/server";

import { BareButton } from "@/components/ui/button";
import { MAX_PERIOD_DAYS, PERIOD_PRESETS } from "@/lib/overview/period";

/**
 * The period: preset links and a plain GET form (no client JavaScript). The values stay in the URL, so a
 * view can be bookmarked, shared and printed as is. A refused period comes back with the values as typed.
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
      <form method="get" action="/" className="flex flex-wrap items-end gap-3" aria-describedby="period-hint">
        <DateInput name="from" label={t("from")} value={from} />
        <DateInput name="to" label={t("to")} value={to} />
        <BareButton
          type="submit"
          withoutScript
          className="rounded-md bg-brand-700 px-3 py-1.5 text-sm font-medium text-white hover:bg-brand-800"
        >
          {t("apply")}
        </BareButton>
        <p id="period-hint" className="w-full text-xs text-slate-600">
          {t("hint", { max: MAX_PERIOD_DAYS, timeZone })}
        </p>
      </form>
    </div>
  );
}

/** One end of the period: a labelled date, sent as `name`. */
function DateInput({ name, label, value }: { name: "from" | "to"; label: string; value: string | undefined }) {
  return (
    <div className="flex flex-col">
      <label htmlFor={`period-${name}`} className="text-xs font-medium text-slate-700">
        {label}
      </label>
      <input
        id={`period-${name}`}
        name={name}
        type="date"
        defaultValue={value}
        required
        className="rounded-md border border-slate-300 px-2 py-1.5 text-sm"
      />
    </div>
  );
}
