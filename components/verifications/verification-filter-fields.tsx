"use client";

import { useTimeZone, useTranslations } from "next-intl";

import { RangeEnds } from "@/components/ui/filter-fields";
import type { VerificationFilters as Filters } from "@/lib/upstream/model/verification-query";

/* The list filters' fields (./verification-filters.tsx holds the draft they edit). */

/** The known values, plus the applied one when the service answered with a value the dashboard does not know. */
export function withCurrent(known: readonly string[], current: string | undefined): string[] {
  return current && !known.includes(current) ? [...known, current] : [...known];
}

/** The status checkboxes: any of the ticked statuses. */
export function StatusChoices({
  id,
  statuses,
  value,
  onChange,
}: {
  id: string;
  statuses: NonNullable<Filters["status"]>;
  value: Filters["status"];
  onChange: (status: Filters["status"]) => void;
}) {
  const t = useTranslations("verifications.filters");
  const tStatus = useTranslations("verifications.status");
  return (
    <fieldset aria-describedby={`${id}-status-hint`}>
      <legend className="text-sm font-medium text-slate-800">{t("status")}</legend>
      <div className="mt-1 flex flex-wrap gap-x-4 gap-y-1">
        {statuses.map((status) => {
          const checked = value?.includes(status) ?? false;
          return (
            <label key={status} className="inline-flex items-center gap-2 text-sm text-slate-800">
              <input
                type="checkbox"
                name="status"
                value={status}
                checked={checked}
                onChange={(event) => {
                  const current = value ?? [];
                  const next = event.target.checked ? [...current, status] : current.filter((item) => item !== status);
                  onChange(next.length ? next : undefined);
                }}
                className="h-4 w-4 rounded border-slate-400"
              />
              {tStatus.has(status) ? tStatus(status) : status}
            </label>
          );
        })}
      </div>
      <p id={`${id}-status-hint`} className="mt-1 text-xs text-slate-600">
        {t("statusHint")}
      </p>
    </fieldset>
  );
}

/** From and to dates, in the display time zone; `rangeError`: from is after to. */
export function DateRangeFields({
  id,
  draft,
  rangeError,
  onChange,
}: {
  id: string;
  draft: Filters;
  rangeError: boolean;
  onChange: (patch: Partial<Filters>) => void;
}) {
  const t = useTranslations("verifications.filters");
  const timeZone = useTimeZone() ?? "UTC";
  return (
    <fieldset aria-describedby={`${id}-range-hint${rangeError ? ` ${id}-range-error` : ""}`}>
      <legend className="text-sm font-medium text-slate-800">{t("dateRange")}</legend>
      <RangeEnds
        id={id}
        type="date"
        labels={{ from: t("from"), to: t("to") }}
        labelClassName="block text-xs text-slate-700"
        className="mt-1 grid grid-cols-2 gap-2"
        from={draft.from ?? ""}
        to={draft.to ?? ""}
        invalid={rangeError}
        onChange={(end, value) => onChange({ [end]: value || undefined })}
      />
      <p id={`${id}-range-hint`} className="mt-1 text-xs text-slate-600">
        {t("dateRangeHint", { timeZone })}
      </p>
      {rangeError ? (
        <p id={`${id}-range-error`} role="alert" className="mt-1 text-sm text-red-700">
          {t("fromAfterTo")}
        </p>
      ) : null}
    </fieldset>
  );
}
