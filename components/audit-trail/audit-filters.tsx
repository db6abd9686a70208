"use client";

import { useTimeZone, useTranslations } from "next-intl";
import { useId, useState, type FormEvent } from "react";

import { FilterBox, FilterError, inputClass, RangeFields } from "@/components/audit-trail/audit-filter-fields";
import { Button } from "@/components/ui/button";
import { FilterSelect } from "@/components/ui/filter-fields";
import { AUDIT_OUTCOME_VALUES, compactFilters, type AuditFilters as Filters } from "@/lib/audit-trail/filters";
import { cpfDigits, formatCpf, formatCpfPartial, isValidCpf } from "@/lib/shared/cpf";

/*
 * The audit log's filters. They edit a draft; "Apply" hands the filters to the log (audit-log.tsx), which
 * puts them in the URL, and the CPF to the log's state: a CPF never goes into the URL. Applying (or clearing) sets
 * the draft to what was applied; the log re-mounts this form when the view changes otherwise (Back, Forward, a
 * link), so the draft always starts from what is on screen.
 */

export const KNOWN_TARGET_TYPES = ["cpf", "verification", "integration", "staff", "phone", "person", "email"] as const;

type Draft = Record<keyof Filters, string> & { cpf: string };
type Problem = "range" | "cpf" | "cpfAndTarget";

function draftOf(filters: Filters, cpf: string | null): Draft {
  return {
    actor: filters.actor ?? "",
    action: filters.action ?? "",
    target_type: filters.target_type ?? "",
    target: filters.target ?? "",
    outcome: filters.outcome ?? "",
    in_connection: filters.in_connection ?? "",
    // <input type="datetime-local"> holds minutes; a date-only filter from a link shows as midnight.
    from: toLocalInput(filters.from, "00:00"),
    to: toLocalInput(filters.to, "23:59"),
    cpf: cpf ? formatCpf(cpf) : "",
  };
}

function toLocalInput(value: string | undefined, timeOfDay: string): string {
  if (!value) return "";
  if (/^\d{4}-\d{2}-\d{2}$/.test(value)) return `${value}T${timeOfDay}`;
  return /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}/.test(value) ? value.slice(0, 16) : "";
}

export function AuditFilters({
  filters,
  cpf,
  actions,
  connections = [],
  onApply,
}: {
  filters: Filters;
  cpf: string | null;
  actions: string[];
  /** The connections an event may have been recorded under (the filter's choices). */
  connections?: Array<{ id: string; name: string }>;
  onApply: (filters: Filters, cpf: string | null) => void;
}) {
  const t = useTranslations("audit.filters");
  const timeZone = useTimeZone() ?? "UTC";
  const id = useId();
  const [draft, setDraft] = useState<Draft>(() => draftOf(filters, cpf));
  const [problem, setProblem] = useState<Problem | null>(null);
  const set = (patch: Partial<Draft>) => setDraft((current) => ({ ...current, ...patch }));

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const digits = cpfDigits(draft.cpf);
    if (draft.cpf.trim() && !isValidCpf(digits)) return setProblem("cpf");
    if (digits && draft.target.trim()) return setProblem("cpfAndTarget");
    if (draft.from && draft.to && draft.from > draft.to) return setProblem("range");
    apply(compactFilters(draft), digits || null);
  };
  // The draft becomes what was applied at once: the log does not draw the form anew for its own apply, so what is
  // typed next (before the address has caught up) stays.
  const apply = (filters: Filters, cpf: string | null) => {
    setProblem(null);
    setDraft(draftOf(filters, cpf));
    onApply(filters, cpf);
  };

  const types = [
    ...KNOWN_TARGET_TYPES,
    ...(filters.target_type && !(KNOWN_TARGET_TYPES as readonly string[]).includes(filters.target_type) ? [filters.target_type] : []),
  ];
  const errorId = (which: Problem) => (problem === which ? `${id}-${which}-error` : undefined);

  return (
    <form onSubmit={submit} aria-label={t("legend")} noValidate className="rounded-lg border border-slate-200 bg-white p-4">
      <div className="grid gap-4 md:grid-cols-2 lg:grid-cols-4">
        <FilterBox id={`${id}-actor`} label={t("actor")} hint={t("actorHint")}>
          <input
            id={`${id}-actor`}
            name="actor"
            type="email"
            autoComplete="off"
            className={inputClass}
            value={draft.actor}
            aria-describedby={`${id}-actor-hint`}
            onChange={(event) => set({ actor: event.target.value })}
          />
        </FilterBox>

        <FilterBox id={`${id}-action`} label={t("action")} hint={t("actionHint")}>
          <input
            id={`${id}-action`}
            name="action"
            list={`${id}-actions`}
            autoComplete="off"
            spellCheck={false}
            className={`${inputClass} font-mono`}
            value={draft.action}
            aria-describedby={`${id}-action-hint`}
            onChange={(event) => set({ action: event.target.value })}
          />
          <datalist id={`${id}-actions`}>
            {actions.map((action) => (
              <option key={action} value={action} />
            ))}
          </datalist>
        </FilterBox>

        <ChoiceFilters id={id} draft={draft} types={types} connections={connections} set={set} />

        <FilterBox id={`${id}-target`} label={t("target")} hint={t("targetHint")}>
          <input
            id={`${id}-target`}
            name="target"
            autoComplete="off"
            spellCheck={false}
            className={`${inputClass} font-mono`}
            value={draft.target}
            aria-invalid={problem === "cpfAndTarget" || undefined}
            aria-describedby={[`${id}-target-hint`, errorId("cpfAndTarget")].filter(Boolean).join(" ")}
            onChange={(event) => set({ target: event.target.value })}
          />
        </FilterBox>

        <FilterBox
          id={`${id}-cpf`}
          label={t("cpf")}
          hint={t("cpfHint")}
          after={
            <>
              {problem === "cpf" ? <FilterError id={`${id}-cpf-error`}>{t("cpfInvalid")}</FilterError> : null}
              {problem === "cpfAndTarget" ? <FilterError id={`${id}-cpfAndTarget-error`}>{t("cpfAndTarget")}</FilterError> : null}
            </>
          }
        >
          <input
            id={`${id}-cpf`}
            inputMode="numeric"
            autoComplete="off"
            placeholder="000.000.000-00"
            className={`${inputClass} font-mono`}
            value={draft.cpf}
            aria-invalid={problem === "cpf" || problem === "cpfAndTarget" || undefined}
            aria-describedby={[`${id}-cpf-hint`, errorId("cpf"), errorId("cpfAndTarget")].filter(Boolean).join(" ")}
            onChange={(event) => set({ cpf: formatCpfPartial(event.target.value) })}
          />
        </FilterBox>

        <RangeFields id={id} from={draft.from} to={draft.to} invalid={problem === "range"} zone={timeZone} onChange={set} />
      </div>
      <div className="mt-4 flex flex-wrap gap-2">
        <Button type="submit">{t("apply")}</Button>
        <Button type="button" variant="secondary" onClick={() => apply({}, null)}>
          {t("clear")}
        </Button>
      </div>
    </form>
  );
}

/** The filters chosen from a list: the result, the target's type, and the connection an event was recorded under. */
function ChoiceFilters({
  id,
  draft,
  types,
  connections,
  set,
}: {
  id: string;
  draft: Draft;
  types: readonly string[];
  connections: Array<{ id: string; name: string }>;
  set: (patch: Partial<Draft>) => void;
}) {
  const t = useTranslations("audit.filters");
  const tTypes = useTranslations("audit.targetTypes");
  const tOutcome = useTranslations("audit.outcome");
  // A connection named by a link but no longer known here stays choosable, under its id.
  const ids = [
    ...connections.map((connection) => connection.id),
    ...(draft.in_connection && !connections.some((c) => c.id === draft.in_connection) ? [draft.in_connection] : []),
  ];
  return (
    <>
      <FilterSelect
        id={`${id}-outcome`}
        name="outcome"
        label={t("outcome")}
        value={draft.outcome}
        options={AUDIT_OUTCOME_VALUES}
        optionLabel={(outcome) => tOutcome(outcome)}
        anyLabel={t("any")}
        onChange={(outcome) => set({ outcome })}
      />
      <FilterSelect
        id={`${id}-target-type`}
        name="target_type"
        label={t("targetType")}
        value={draft.target_type}
        options={types}
        optionLabel={(type) => (tTypes.has(type) ? tTypes(type) : type)}
        anyLabel={t("any")}
        onChange={(type) => set({ target_type: type })}
      />
      {ids.length > 1 || draft.in_connection ? (
        <FilterSelect
          id={`${id}-connection`}
          name="in_connection"
          label={t("connection")}
          value={draft.in_connection}
          options={ids}
          optionLabel={(value) => connections.find((connection) => connection.id === value)?.name ?? value}
          anyLabel={t("any")}
          onChange={(value) => set({ in_connection: value })}
        />
      ) : null}
    </>
  );
}
