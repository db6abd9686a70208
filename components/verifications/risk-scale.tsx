import { useTranslations } from "next-intl";

import { useNumber } from "@/components/ui/use-formatters";
import { RISK_BANDS, RISK_SCALE, riskBand, type RiskBand } from "@/lib/cases/red-flags";

import { LabelledMeter } from "./score-bar";

/*
 * Risk drawn as risk: a scale split in bands (low, medium, high) with a marker at the score and a legend
 * naming each band's range. The band is written next to the number, so neither colour nor position alone
 * carries it. Higher is worse, the opposite of the identity score, hence a drawing of its own.
 */
const BAND_STYLE: Record<RiskBand, { fill: string; text: string; symbol: string }> = {
  low: { fill: "bg-emerald-500", text: "text-emerald-800", symbol: "▁" },
  medium: { fill: "bg-amber-400", text: "text-amber-900", symbol: "▃" },
  high: { fill: "bg-red-600", text: "text-red-800", symbol: "▇" },
};

export function RiskScale({ score, label, emptyText }: { score: number | null; label: string; emptyText: string }) {
  const t = useTranslations("verifications.risk");
  const number = useNumber();
  const max = Math.max(RISK_SCALE, score ?? 0);
  const band = score === null ? null : riskBand(score);
  const valueText = score === null || band === null ? emptyText : t("value", { score: number(score), max: number(max), band: t(band) });
  const bands = RISK_BANDS.map((entry, index) => ({ ...entry, to: (RISK_BANDS[index + 1]?.from ?? max + 1) - 1 }));
  return (
    <div data-risk-band={band ?? "none"}>
      <LabelledMeter
        label={label}
        max={max}
        value={score ?? undefined}
        valueText={valueText}
        valueClassName={`font-semibold tabular-nums ${band ? BAND_STYLE[band].text : "text-slate-700"}`}
        className="relative mt-1 flex h-3 overflow-visible rounded-full"
      >
        {bands.map((entry) => (
          <div
            key={entry.band}
            className={`h-3 first:rounded-l-full last:rounded-r-full ${BAND_STYLE[entry.band].fill} ${band && band !== entry.band ? "opacity-35" : ""}`}
            style={{ width: `${((entry.to - entry.from + 1) / (max + 1)) * 100}%` }}
          />
        ))}
        {score !== null ? (
          <div
            aria-hidden="true"
            className="absolute -top-1.5 h-6 w-1 -translate-x-1/2 rounded bg-slate-900 ring-2 ring-white"
            style={{ left: `${Math.min(100, (score / max) * 100)}%` }}
          />
        ) : null}
      </LabelledMeter>
      <ul aria-label={t("legend")} className="mt-2 flex flex-wrap gap-x-4 gap-y-1 text-xs text-slate-700">
        {bands.map((entry) => (
          <li key={entry.band} className="flex items-center gap-1">
            <span aria-hidden="true" className={`inline-block h-2.5 w-2.5 rounded-sm ${BAND_STYLE[entry.band].fill}`} />
            {t("legendItem", { band: t(entry.band), from: number(entry.from), to: number(entry.to) })}
          </li>
        ))}
      </ul>
    </div>
  );
}
