"use client";

import { useTimeZone, useTranslations } from "next-intl";
import { useId, useState, type FormEvent } from "react";

import { Button } from "@/components/ui/button";
import { AUDIT_OUTCOME_VALUES, compactFilters, type AuditFilters as Filters } from "@/lib/audit-trail/filters";
import { cpfDigits, formatCpf, formatCpfPartial, isValidCpf } from "@/lib/shared/cpf";

/*
 * The audit log's filters. They edit a draft; "Apply" hands the filters to the page, which puts them in
 * the URL, and the CPF to the page's state: a CPF never goes into the URL. The page re-mounts this form
 * when the applied filters change, so the draft always starts from what is on screen.
 */

export const KNOWN_TARGET_TYPES = ["cpf", "verification", "integration", "staff", "phone", "person", "email"] as const;

const inputClass = "mt-1 block w-full rounded-md border border-slate-300 bg-white px-3 py-2 text-sm shadow-sm focus:border-brand-600";

type Draft = Record<keyof Filters, string> & { cpf: string };
type Problem = "range" | "cpf" | "cpfAndTarget";

function draftOf(filters: Filters, cpf: string | null): Draft {
  return {
    actor: filters.actor ?? "",
    action: filters.action ?? "",
    target_type: filters.target_type ?? "",
    target: filters.target ?? "",
    outcome: filters.outcome ?? "",
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
  onApply,
}: {
  filters: Filters;
  cpf: string | null;
  actions: string[];
  onApply: (filters: Filters, cpf: string | null) => void;
}) {
  const t = useTranslations("audit.filters");
  const tTypes = useTranslations("audit.targetTypes");
  const tOutcome = useTranslations("audit.outcome");
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
    setProblem(null);
    onApply(compactFilters(draft), digits || null);
  };

  const types = [
    ...KNOWN_TARGET_TYPES,
    ...(filters.target_type && !(KNOWN_TARGET_TYPES as readonly string[]).includes(filters.target_type) ? [filters.target_type] : []),
  ];
  const errorId = (which: Problem) => (problem === which ? `${id}-${which}-error` : undefined);

  return (
    <form onSubmit={submit} aria-label={t("legend")} noValidate className="rounded-lg border border-slate-200 bg-white p-4">
      <div className="grid gap-4 md:grid-cols-2 lg:grid-cols-4">
        <div>
          <label htmlFor={`${id}-actor`} className="block text-sm font-medium text-slate-800">
            {t("actor")}
          </label>
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
          <p id={`${id}-actor-hint`} className="mt-1 text-xs text-slate-600">
            {t("actorHint")}
          </p>
        </div>

        <div>
          <label htmlFor={`${id}-action`} className="block text-sm font-medium text-slate-800">
            {t("action")}
          </label>
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
          <p id={`${id}-action-hint`} className="mt-1 text-xs text-slate-600">
            {t("actionHint")}
          </p>
        </div>

        <div>
          <label htmlFor={`${id}-outcome`} className="block text-sm font-medium text-slate-800">
            {t("outcome")}
          </label>
          <select
            id={`${id}-outcome`}
            name="outcome"
            className={inputClass}
            value={draft.outcome}
            onChange={(event) => set({ outcome: event.target.value })}
          >
            <option value="">{t("any")}</option>
            {AUDIT_OUTCOME_VALUES.map((outcome) => (
              <option key={outcome} value={outcome}>
                {tOutcome(outcome)}
              </option>
            ))}
          </select>
        </div>

        <div>
          <label htmlFor={`${id}-target-type`} className="block text-sm font-medium text-slate-800">
            {t("targetType")}
          </label>
          <select
            id={`${id}-target-type`}
            name="target_type"
            className={inputClass}
            value={draft.target_type}
            onChange={(event) => set({ target_type: event.target.value })}
          >
            <option value="">{t("any")}</option>
            {types.map((type) => (
              <option key={type} value={type}>
                {tTypes.has(type) ? tTypes(type) : type}
              </option>
            ))}
          </select>
        </div>

        <div>
          <label htmlFor={`${id}-target`} className="block text-sm font-medium text-slate-800">
            {t("target")}
          </label>
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
          <p id={`${id}-target-hint`} className="mt-1 text-xs text-slate-600">
            {t("targetHint")}
          </p>
        </div>

        <div>
          <label htmlFor={`${id}-cpf`} className="block text-sm font-medium text-slate-800">
            {t("cpf")}
          </label>
          <input
            id={`${id}-cpf`}
            name="cpf"
            inputMode="numeric"
            autoComplete="off"
            placeholder="000.000.000-00"
            className={`${inputClass} font-mono`}
            value={draft.cpf}
            aria-invalid={problem === "cpf" || problem === "cpfAndTarget" || undefined}
            aria-describedby={[`${id}-cpf-hint`, errorId("cpf"), errorId("cpfAndTarget")].filter(Boolean).join(" ")}
            onChange={(event) => set({ cpf: formatCpfPartial(event.target.value) })}
          />
          <p id={`${id}-cpf-hint`} className="mt-1 text-xs text-slate-600">
            {t("cpfHint")}
          </p>
          {problem === "cpf" ? (
            <p id={`${id}-cpf-error`} role="alert" className="mt-1 text-sm text-red-700">
              {t("cpfInvalid")}
            </p>
          ) : null}
          {problem === "cpfAndTarget" ? (
            <p id={`${id}-cpfAndTarget-error`} role="alert" className="mt-1 text-sm text-red-700">
              {t("cpfAndTarget")}
            </p>
          ) : null}
        </div>

        <fieldset className="md:col-span-2" aria-describedby={[`${id}-range-hint`, errorId("range")].filter(Boolean).join(" ")}>
          <legend className="sr-only">
            {t("from")} / {t("to")}
          </legend>
          <div className="grid grid-cols-2 gap-2">
            <div>
              <label htmlFor={`${id}-from`} className="block text-sm font-medium text-slate-800">
                {t("from")}
              </label>
              <input
                id={`${id}-from`}
                name="from"
                type="datetime-local"
                className={inputClass}
                value={draft.from}
                max={draft.to || undefined}
                aria-invalid={problem === "range" || undefined}
                onChange={(event) => set({ from: event.target.value })}
              />
            </div>
            <div>
              <label htmlFor={`${id}-to`} className="block text-sm font-medium text-slate-800">
                {t("to")}
              </label>
              <input
                id={`${id}-to`}
                name="to"
                type="datetime-local"
                className={inputClass}
                value={draft.to}
                min={draft.from || undefined}
                aria-invalid={problem === "range" || undefined}
                onChange={(event) => set({ to: event.target.value })}
              />
            </div>
          </div>
          <p id={`${id}-range-hint`} className="mt-1 text-xs text-slate-600">
            {t("rangeHint", { zone: timeZone })}
          </p>
          {problem === "range" ? (
            <p id={`${id}-range-error`} role="alert" className="mt-1 text-sm text-red-700">
              {t("rangeError")}
            </p>
          ) : null}
        </fieldset>
      </div>
      <div className="mt-4 flex flex-wrap gap-2">
        <Button type="submit">{t("apply")}</Button>
        <Button type="button" variant="secondary" onClick={() => onApply({}, null)}>
          {t("clear")}
        </Button>
      </div>
    </form>
  );
}
