"use client";

import { useTimeZone, useTranslations } from "next-intl";
import { useId, useState, type FormEvent } from "react";

import { Button } from "@/components/ui/button";
import { KNOWN_FLOWS, KNOWN_STATUSES, PAGE_SIZES, type VerificationFilters as Filters } from "@/lib/upstream/model/verification-query";
import { DEFAULT_PAGE_SIZE, filtersToUrlQuery, KNOWN_JOURNEYS } from "@/lib/verifications/rules";

import { useFlowLabel, useJourneyLabel } from "./labels";

/*
 * The list's filters. They edit a draft; "Apply" puts it in the URL (the list page pushes a history entry
 * so Back and Forward walk through views). When the applied filters change (Apply, Back, Forward) the
 * draft is reset to them during render, without re-mounting the form: the keyboard focus stays on the
 * control the analyst used.
 */

const selectClass = "mt-1 block w-full rounded-md border border-slate-300 bg-white px-3 py-2 text-sm shadow-sm focus:border-brand-600";
const inputClass = selectClass;

function withCurrent(known: readonly string[], current: string | undefined): string[] {
  return current && !known.includes(current) ? [...known, current] : [...known];
}

export function VerificationFilters({
  filters,
  maxPerPage,
  onApply,
}: {
  filters: Filters;
  maxPerPage: number;
  onApply: (filters: Filters) => void;
}) {
  const t = useTranslations("verifications.filters");
  const tStatus = useTranslations("verifications.status");
  const timeZone = useTimeZone() ?? "UTC";
  const id = useId();
  const flowLabel = useFlowLabel();
  const journeyLabel = useJourneyLabel();
  // Folded by default so the rows come first; the summary names what is applied.
  const [open, setOpen] = useState(false);
  const active = [
    filters.status?.length ? filters.status.map((status) => (tStatus.has(status) ? tStatus(status) : status)).join(", ") : null,
    filters.flow ? flowLabel(filters.flow) : null,
    filters.journey ? journeyLabel(filters.journey) : null,
    filters.from || filters.to ? `${filters.from ?? "…"} – ${filters.to ?? "…"}` : null,
  ].filter((value): value is string => Boolean(value));
  const [draft, setDraft] = useState<Filters>(filters);
  const [rangeError, setRangeError] = useState(false);
  const applied = filtersToUrlQuery(filters);
  const [shown, setShown] = useState(applied);
  if (shown !== applied) {
    setShown(applied);
    setDraft(filters);
    setRangeError(false);
  }

  const statuses = [
    ...KNOWN_STATUSES,
    ...(filters.status ?? []).filter((status) => !(KNOWN_STATUSES as readonly string[]).includes(status)),
  ];
  const pageSizes = PAGE_SIZES.filter((size) => size <= maxPerPage);
  const set = (patch: Partial<Filters>) => setDraft((current) => ({ ...current, ...patch }));

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (draft.from && draft.to && draft.from > draft.to) {
      setRangeError(true);
      return;
    }
    setRangeError(false);
    // A new filter starts at the first page.
    onApply({ ...draft, page: undefined });
  };

  return (
    <details
      open={open}
      onToggle={(event) => setOpen(event.currentTarget.open)}
      className="rounded-lg border border-slate-200 bg-white"
      data-filters
    >
      <summary className="flex cursor-pointer flex-wrap items-center gap-x-3 gap-y-1 px-4 py-2 text-sm">
        <span className="font-medium text-slate-900">{t("legend")}</span>
        <span className="text-slate-700">{active.length ? active.join(" · ") : t("noneApplied")}</span>
      </summary>
      <form onSubmit={submit} aria-label={t("legend")} className="border-t border-slate-200 p-4">
        <div className="grid gap-4 md:grid-cols-2 lg:grid-cols-[2fr_1fr_1fr_2fr_auto]">
          <fieldset aria-describedby={`${id}-status-hint`}>
            <legend className="text-sm font-medium text-slate-800">{t("status")}</legend>
            <div className="mt-1 flex flex-wrap gap-x-4 gap-y-1">
              {statuses.map((status) => {
                const checked = draft.status?.includes(status) ?? false;
                return (
                  <label key={status} className="inline-flex items-center gap-2 text-sm text-slate-800">
                    <input
                      type="checkbox"
                      name="status"
                      value={status}
                      checked={checked}
                      onChange={(event) => {
                        const current = draft.status ?? [];
                        const next = event.target.checked ? [...current, status] : current.filter((value) => value !== status);
                        set({ status: next.length ? next : undefined });
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

          <div>
            <label htmlFor={`${id}-flow`} className="block text-sm font-medium text-slate-800">
              {t("flow")}
            </label>
            <select
              id={`${id}-flow`}
              name="flow"
              className={selectClass}
              value={draft.flow ?? ""}
              onChange={(event) => set({ flow: event.target.value || undefined })}
            >
              <option value="">{t("any")}</option>
              {withCurrent(KNOWN_FLOWS, filters.flow).map((flow) => (
                <option key={flow} value={flow}>
                  {flowLabel(flow)}
                </option>
              ))}
            </select>
          </div>

          <div>
            <label htmlFor={`${id}-journey`} className="block text-sm font-medium text-slate-800">
              {t("journey")}
            </label>
            <select
              id={`${id}-journey`}
              name="journey"
              className={selectClass}
              value={draft.journey ?? ""}
              onChange={(event) => set({ journey: event.target.value || undefined })}
            >
              <option value="">{t("any")}</option>
              {withCurrent(KNOWN_JOURNEYS, filters.journey).map((journey) => (
                <option key={journey} value={journey}>
                  {journeyLabel(journey)}
                </option>
              ))}
            </select>
          </div>

          <fieldset aria-describedby={`${id}-range-hint${rangeError ? ` ${id}-range-error` : ""}`}>
            <legend className="text-sm font-medium text-slate-800">{t("dateRange")}</legend>
            <div className="mt-1 grid grid-cols-2 gap-2">
              <div>
                <label htmlFor={`${id}-from`} className="block text-xs text-slate-700">
                  {t("from")}
                </label>
                <input
                  id={`${id}-from`}
                  name="from"
                  type="date"
                  className={inputClass}
                  value={draft.from ?? ""}
                  max={draft.to}
                  aria-invalid={rangeError || undefined}
                  onChange={(event) => set({ from: event.target.value || undefined })}
                />
              </div>
              <div>
                <label htmlFor={`${id}-to`} className="block text-xs text-slate-700">
                  {t("to")}
                </label>
                <input
                  id={`${id}-to`}
                  name="to"
                  type="date"
                  className={inputClass}
                  value={draft.to ?? ""}
                  min={draft.from}
                  aria-invalid={rangeError || undefined}
                  onChange={(event) => set({ to: event.target.value || undefined })}
                />
              </div>
            </div>
            <p id={`${id}-range-hint`} className="mt-1 text-xs text-slate-600">
              {t("dateRangeHint", { timeZone })}
            </p>
            {rangeError ? (
              <p id={`${id}-range-error`} role="alert" className="mt-1 text-sm text-red-700">
                {t("fromAfterTo")}
              </p>
            ) : null}
          </fieldset>

          <div>
            <label htmlFor={`${id}-per-page`} className="block text-sm font-medium text-slate-800">
              {t("pageSize")}
            </label>
            <select
              id={`${id}-per-page`}
              name="per_page"
              className={selectClass}
              value={String(draft.per_page ?? DEFAULT_PAGE_SIZE)}
              onChange={(event) => set({ per_page: Number(event.target.value) })}
            >
              {withCurrent(pageSizes.map(String), String(draft.per_page ?? DEFAULT_PAGE_SIZE)).map((size) => (
                <option key={size} value={size}>
                  {size}
                </option>
              ))}
            </select>
          </div>
        </div>
        <div className="mt-4 flex flex-wrap gap-2">
          <Button type="submit">{t("apply")}</Button>
          <Button type="button" variant="secondary" onClick={() => onApply({ per_page: draft.per_page })}>
            {t("clear")}
          </Button>
        </div>
      </form>
    </details>
  );
}
