"use client";

import { useTranslations } from "next-intl";
import { useId, useState, type FormEvent } from "react";

import { Button } from "@/components/ui/button";
import { FilterSelect } from "@/components/ui/filter-fields";
import { KNOWN_FLOWS, KNOWN_STATUSES, PAGE_SIZES, type VerificationFilters as Filters } from "@/lib/upstream/model/verification-query";
import { DEFAULT_PAGE_SIZE, filtersToUrlQuery, KNOWN_JOURNEYS } from "@/lib/verifications/rules";

import { useFlowLabel, useJourneyLabel } from "./labels";
import { DateRangeFields, StatusChoices, withCurrent } from "./verification-filter-fields";

/*
 * The list's filters. They edit a draft; "Apply" puts it in the URL (the list page pushes a history entry
 * so Back and Forward walk through views). When the applied filters change (Apply, Back, Forward) the
 * draft is reset to them during render, without re-mounting the form: the keyboard focus stays on the
 * control the analyst used.
 */

/** What is applied, in words, for the folded summary. */
function useAppliedSummary(filters: Filters): string[] {
  const tStatus = useTranslations("verifications.status");
  const flowLabel = useFlowLabel();
  const journeyLabel = useJourneyLabel();
  return [
    filters.status?.length ? filters.status.map((status) => (tStatus.has(status) ? tStatus(status) : status)).join(", ") : null,
    filters.flow ? flowLabel(filters.flow) : null,
    filters.journey ? journeyLabel(filters.journey) : null,
    filters.from || filters.to ? `${filters.from ?? "…"} – ${filters.to ?? "…"}` : null,
  ].filter((value): value is string => Boolean(value));
}

/** The draft the form edits, reset to the applied filters whenever they change; `submit` refuses a from after to. */
function useFilterDraft(filters: Filters, onApply: (filters: Filters) => void) {
  const [draft, setDraft] = useState<Filters>(filters);
  const [rangeError, setRangeError] = useState(false);
  const applied = filtersToUrlQuery(filters);
  const [shown, setShown] = useState(applied);
  if (shown !== applied) {
    setShown(applied);
    setDraft(filters);
    setRangeError(false);
  }
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
  return { draft, set, rangeError, submit };
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
  const id = useId();
  const flowLabel = useFlowLabel();
  const journeyLabel = useJourneyLabel();
  // Folded by default so the rows come first; the summary names what is applied.
  const [open, setOpen] = useState(false);
  const active = useAppliedSummary(filters);
  const { draft, set, rangeError, submit } = useFilterDraft(filters, onApply);

  const statuses = [
    ...KNOWN_STATUSES,
    ...(filters.status ?? []).filter((status) => !(KNOWN_STATUSES as readonly string[]).includes(status)),
  ];
  const pageSizes = PAGE_SIZES.filter((size) => size <= maxPerPage);
  const perPage = String(draft.per_page ?? DEFAULT_PAGE_SIZE);

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
          <StatusChoices id={id} statuses={statuses} value={draft.status} onChange={(status) => set({ status })} />
          <FilterSelect
            id={`${id}-flow`}
            name="flow"
            label={t("flow")}
            value={draft.flow ?? ""}
            options={withCurrent(KNOWN_FLOWS, filters.flow)}
            optionLabel={flowLabel}
            anyLabel={t("any")}
            onChange={(value) => set({ flow: value || undefined })}
          />
          <FilterSelect
            id={`${id}-journey`}
            name="journey"
            label={t("journey")}
            value={draft.journey ?? ""}
            options={withCurrent(KNOWN_JOURNEYS, filters.journey)}
            optionLabel={journeyLabel}
            anyLabel={t("any")}
            onChange={(value) => set({ journey: value || undefined })}
          />
          <DateRangeFields id={id} draft={draft} rangeError={rangeError} onChange={set} />
          <FilterSelect
            id={`${id}-per-page`}
            name="per_page"
            label={t("pageSize")}
            value={perPage}
            options={withCurrent(pageSizes.map(String), perPage)}
            onChange={(value) => set({ per_page: Number(value) })}
          />
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
