"use client";

import { useTranslations } from "next-intl";
import { useEffect, useState, type FormEvent } from "react";

import { Button } from "@/components/ui/button";
import { CpfField } from "@/components/ui/cpf-field";
import { focusFirstProblem } from "@/components/ui/focus-first-problem";
import { PurposeField } from "@/components/ui/purpose-field";
import { clearHandedCpf, handedCpf } from "@/lib/lookups/prefill";
import { purposeProblem, type LookupSource, type PurposeProblem } from "@/lib/lookups/rules";
import { cpfProblem, type CpfProblem } from "@/lib/shared/cpf";

export type SourceChoice = "both" | LookupSource;
const CHOICES: SourceChoice[] = ["both", "receita", "history"];

export interface LookupRequest {
  cpf: string;
  purpose: string;
  sources: LookupSource[];
}

/**
 * The lookup form. Every rule is checked here first (CPF check digits, repeated digits, purpose), so a
 * bad CPF never leaves the browser; the route checks them again.
 */
export function CpfLookupForm({
  pending,
  serverErrors,
  onSubmit,
}: {
  pending: boolean;
  /** Field errors the route answered (e.g. a purpose holding a CPF). */
  serverErrors: { cpf: boolean; purpose: boolean };
  onSubmit: (request: LookupRequest) => void;
}) {
  const t = useTranslations("lookups");
  // A CPF handed over by the top bar's search (lib/lookups/prefill.ts): filled in, and the purpose asked next.
  const [cpf, setCpf] = useState(() => handedCpf() ?? "");
  const [purpose, setPurpose] = useState("");
  const [source, setSource] = useState<SourceChoice>("both");
  const [cpfError, setCpfError] = useState<CpfProblem | undefined>();
  const [purposeError, setPurposeError] = useState<PurposeProblem | undefined>();
  // The route's field errors show until the field is edited again.
  const [edited, setEdited] = useState({ cpf: false, purpose: false });
  useEffect(() => {
    if (!handedCpf()) return;
    clearHandedCpf();
    document.getElementById("lookup-purpose")?.focus();
  }, []);
  const shownCpfError = cpfError ?? (serverErrors.cpf && !edited.cpf ? "server" : undefined);
  const shownPurposeError = purposeError ?? (serverErrors.purpose && !edited.purpose ? "content" : undefined);

  function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (pending) return;
    const cpfIssue = cpfProblem(cpf);
    const purposeIssue = purposeProblem(purpose);
    setCpfError(cpfIssue);
    setPurposeError(purposeIssue);
    setEdited({ cpf: false, purpose: false });
    if (focusFirstProblem({ "lookup-cpf": cpfIssue, "lookup-purpose": purposeIssue })) return;
    onSubmit({ cpf, purpose: purpose.trim(), sources: source === "both" ? ["receita", "history"] : [source] });
  }

  return (
    <form
      noValidate
      onSubmit={submit}
      className="rounded-xl border border-slate-200 bg-white p-5 shadow-sm"
      aria-describedby="lookup-limits"
    >
      <fieldset disabled={pending} className="space-y-4">
        <legend className="text-base font-semibold text-slate-900">{t("form.legend")}</legend>
        <CpfField
          id="lookup-cpf"
          label={t("form.cpf")}
          hint={t("form.cpfHint")}
          value={cpf}
          onValueChange={(value) => {
            setCpf(value);
            setEdited((state) => ({ ...state, cpf: true }));
          }}
          onProblemChange={setCpfError}
          problem={shownCpfError}
          messages={(problem) => t(`errors.cpf.${problem}`)}
        />
        <PurposeField
          id="lookup-purpose"
          label={t("form.purpose")}
          hint={t("form.purposeHint")}
          value={purpose}
          className="max-w-2xl"
          onValueChange={(value) => {
            setPurpose(value);
            setPurposeError(undefined);
            setEdited((state) => ({ ...state, purpose: true }));
          }}
          problem={shownPurposeError}
          messages={(problem, bounds) => t(`errors.purpose.${problem}`, bounds)}
        />
        <fieldset>
          <legend className="text-sm font-medium text-slate-800">{t("form.source")}</legend>
          <div className="mt-2 grid gap-2 sm:grid-cols-3">
            {CHOICES.map((choice) => (
              <label
                key={choice}
                className={`flex cursor-pointer gap-2 rounded-lg border p-3 text-sm has-[:focus-visible]:outline has-[:focus-visible]:outline-2 has-[:focus-visible]:outline-brand-600 ${
                  source === choice ? "border-brand-600 bg-brand-50" : "border-slate-300 bg-white"
                }`}
              >
                <input
                  type="radio"
                  name="source"
                  value={choice}
                  checked={source === choice}
                  onChange={() => setSource(choice)}
                  className="mt-0.5"
                  aria-labelledby={`source-label-${choice}`}
                  aria-describedby={`source-hint-${choice}`}
                />
                <span>
                  <span id={`source-label-${choice}`} className="block font-medium text-slate-900">
                    {t(`form.sources.${choice}`)}
                  </span>
                  <span id={`source-hint-${choice}`} className="block text-xs text-slate-600">
                    {t(`form.sourceHints.${choice}`)}
                  </span>
                </span>
              </label>
            ))}
          </div>
        </fieldset>
        <div className="flex flex-wrap items-center gap-3">
          <Button type="submit" pending={pending}>
            {pending ? t("form.submitting") : t("form.submit")}
          </Button>
        </div>
      </fieldset>
    </form>
  );
}
