import type { ReactNode } from "react";

import { useNumber } from "@/components/ui/use-formatters";

/** A meter's line (its name, then its value in words) and the meter, drawn inside by `children`. */
export function LabelledMeter({
  label,
  max,
  value,
  valueText,
  valueClassName,
  className,
  children,
}: {
  label: string;
  max: number;
  value: number | undefined;
  valueText: string;
  valueClassName: string;
  className: string;
  children: ReactNode;
}) {
  return (
    <>
      <div className="flex items-baseline justify-between gap-2 text-sm">
        <span className="font-medium text-slate-800">{label}</span>
        <span className={valueClassName}>{valueText}</span>
      </div>
      <div
        role="meter"
        aria-label={label}
        aria-valuemin={0}
        aria-valuemax={max}
        aria-valuenow={value}
        aria-valuetext={valueText}
        className={className}
      >
        {children}
      </div>
    </>
  );
}

/*
 * A value drawn as a bar, with the number always written next to it (the bar alone would be colour and
 * length only). `threshold` draws a labelled line across the bar, e.g. facematch's 80 % validity line.
 */
export function ScoreBar({
  label,
  value,
  max,
  unit = "",
  valueText,
  threshold,
  tone = "brand",
  emptyText,
}: {
  label: string;
  value: number | null | undefined;
  max: number;
  unit?: string;
  valueText?: string;
  threshold?: { value: number; label: string };
  tone?: "brand" | "good" | "bad";
  emptyText: string;
}) {
  const number = useNumber();
  const hasValue = typeof value === "number" && Number.isFinite(value);
  const percent = hasValue ? Math.min(100, Math.max(0, (value / max) * 100)) : 0;
  const text = hasValue ? (valueText ?? `${number(value)}${unit}`) : emptyText;
  const fill = tone === "good" ? "bg-emerald-600" : tone === "bad" ? "bg-amber-600" : "bg-brand-600";
  return (
    <div>
      <LabelledMeter
        label={label}
        max={max}
        value={hasValue ? value : undefined}
        valueText={text}
        valueClassName="text-slate-900 tabular-nums"
        className="relative mt-1 h-3 rounded-full bg-slate-200"
      >
        {hasValue ? <div className={`h-3 rounded-full ${fill}`} style={{ width: `${percent}%` }} /> : null}
        {threshold ? (
          <div
            className="absolute -top-1 -bottom-1 w-0.5 bg-slate-900"
            style={{ left: `${Math.min(100, (threshold.value / max) * 100)}%` }}
            aria-hidden="true"
            title={threshold.label}
          />
        ) : null}
      </LabelledMeter>
      {threshold ? (
        <div className="relative mt-1 h-4 text-xs text-slate-700" aria-hidden="true">
          <span
            className="absolute -translate-x-1/2 whitespace-nowrap"
            style={{ left: `${Math.min(100, (threshold.value / max) * 100)}%` }}
          >
            {threshold.label}
          </span>
        </div>
      ) : null}
    </div>
  );
}
