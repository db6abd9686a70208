"use client";

import { useLocale, useTranslations } from "next-intl";
import { useState, type FormEvent } from "react";

import { Button } from "@/components/ui/button";
import { CpfField } from "@/components/ui/cpf-field";
import { focusFirstProblem } from "@/components/ui/focus-first-problem";
import { isLocale, LOCALES, type Locale } from "@/lib/i18n/locales";
import type { ReportFormat } from "@/lib/privacy/titular";
import { cpfProblem, type CpfProblem } from "@/lib/shared/cpf";

export interface TitularReportAsk {
  cpf: string;
  locale: Locale;
  format: ReportFormat;
}

const LANGUAGE_NAMES: Record<Locale, string> = { "pt-BR": "Português (Brasil)", en: "English" };

/**
 * The titular report's form: the CPF (checked here first, so a bad one never leaves the browser; the route
 * checks it again) and the report's language, then one of three buttons: show it on screen, or download it as
 * CSV or PDF. The CPF goes in the request's body only.
 */
export function TitularReportForm({
  pending,
  serverCpfError,
  onAsk,
}: {
  /** The format being built, or null. */
  pending: ReportFormat | null;
  /** The route refused the CPF (shown until the field is edited). */
  serverCpfError: boolean;
  onAsk: (ask: TitularReportAsk) => void;
}) {
  const t = useTranslations("privacy.report");
  const current = useLocale();
  const [cpf, setCpf] = useState("");
  const [locale, setLocale] = useState<Locale>(isLocale(current) ? current : "pt-BR");
  const [cpfError, setCpfError] = useState<CpfProblem | undefined>();
  const [edited, setEdited] = useState(false);
  const shownError = cpfError ?? (serverCpfError && !edited ? "server" : undefined);

  function ask(format: ReportFormat) {
    if (pending) return;
    const problem = cpfProblem(cpf);
    setCpfError(problem);
    setEdited(false);
    if (focusFirstProblem({ "titular-cpf": problem })) return;
    onAsk({ cpf, locale, format });
  }

  return (
    <form
      noValidate
      onSubmit={(event: FormEvent<HTMLFormElement>) => {
        event.preventDefault();
        ask("json");
      }}
      className="rounded-xl border border-slate-200 bg-white p-5 shadow-sm"
    >
      <fieldset disabled={pending !== null} className="space-y-4">
        <legend className="sr-only">{t("heading")}</legend>
        <div className="flex flex-wrap items-start gap-4">
          <CpfField
            id="titular-cpf"
            label={t("cpf")}
            hint={t("cpfHint")}
            value={cpf}
            onValueChange={(value) => {
              setCpf(value);
              setEdited(true);
            }}
            onProblemChange={setCpfError}
            problem={shownError}
            messages={(problem) => t(`errors.cpf.${problem}`)}
          />
          <div>
            <label htmlFor="titular-locale" className="block text-sm font-medium text-slate-800">
              {t("locale")}
            </label>
            <select
              id="titular-locale"
              name="locale"
              value={locale}
              onChange={(event) => setLocale(event.target.value as Locale)}
              className="mt-1 block rounded-md border border-slate-300 bg-white px-3 py-2 text-sm shadow-sm focus:border-brand-600"
            >
              {LOCALES.map((option) => (
                <option key={option} value={option} lang={option}>
                  {LANGUAGE_NAMES[option]}
                </option>
              ))}
            </select>
          </div>
        </div>
        <div className="flex flex-wrap items-center gap-3">
          <Button type="submit" pending={pending === "json"}>
            {t("show")}
          </Button>
          <Button variant="secondary" pending={pending === "csv"} onClick={() => ask("csv")}>
            {t("csv")}
          </Button>
          <Button variant="secondary" pending={pending === "pdf"} onClick={() => ask("pdf")}>
            {t("pdf")}
          </Button>
        </div>
      </fieldset>
    </form>
  );
}
