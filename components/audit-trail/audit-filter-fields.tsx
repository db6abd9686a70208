"use client";

import { useTranslations } from "next-intl";
import type { ReactNode } from "react";

import { RangeEnds } from "@/components/ui/filter-fields";

/*
 * The audit filters' fields: a label, the control, an optional hint (its id is the control's plus `-hint`)
 * and whatever follows it, such as an error. The form (audit-filters.tsx) holds the draft and the checks.
 */

export const inputClass =
  "mt-1 block w-full rounded-md border border-slate-300 bg-white px-3 py-2 text-sm shadow-sm focus:border-brand-600";

const labelClass = "block text-sm font-medium text-slate-800";

export function FilterBox({
  id,
  label,
  hint,
  after,
  children,
}: {
  id: string;
  label: string;
  hint?: ReactNode;
  after?: ReactNode;
  children: ReactNode;
}) {
  return (
    <div>
      <label htmlFor={id} className={labelClass}>
        {label}
      </label>
      {children}
      {hint ? (
        <p id={`${id}-hint`} className="mt-1 text-xs text-slate-600">
          {hint}
        </p>
      ) : null}
      {after}
    </div>
  );
}

/** A field's error, tied to it by `aria-describedby`. */
export function FilterError({ id, children }: { id: string; children: ReactNode }) {
  return (
    <p id={id} role="alert" className="mt-1 text-sm text-red-700">
      {children}
    </p>
  );
}

/** From and to, as local date and time in the dashboard's zone; one may not pass the other. */
export function RangeFields({
  id,
  from,
  to,
  invalid,
  zone,
  onChange,
}: {
  id: string;
  from: string;
  to: string;
  invalid: boolean;
  zone: string;
  onChange: (patch: { from?: string; to?: string }) => void;
}) {
  const t = useTranslations("audit.filters");
  return (
    <fieldset
      className="md:col-span-2"
      aria-describedby={[`${id}-range-hint`, invalid ? `${id}-range-error` : undefined].filter(Boolean).join(" ")}
    >
      <legend className="sr-only">
        {t("from")} / {t("to")}
      </legend>
      <RangeEnds
        id={id}
        type="datetime-local"
        labels={{ from: t("from"), to: t("to") }}
        labelClassName={labelClass}
        className="grid grid-cols-2 gap-2"
        from={from}
        to={to}
        invalid={invalid}
        onChange={(end, value) => onChange({ [end]: value })}
      />
      <p id={`${id}-range-hint`} className="mt-1 text-xs text-slate-600">
        {t("rangeHint", { zone })}
      </p>
      {invalid ? <FilterError id={`${id}-range-error`}>{t("rangeError")}</FilterError> : null}
    </fieldset>
  );
}
