"use client";

import { useTranslations } from "next-intl";
import { useCallback, useId, useRef, useState, type FormEvent } from "react";

import { useLookupErrorMessage } from "@/components/lookups/lookup-error-message";
import { Alert } from "@/components/ui/alert";
import { Button } from "@/components/ui/button";
import { CpfField } from "@/components/ui/cpf-field";
import { focusFirstProblem } from "@/components/ui/focus-first-problem";
import { PurposeField, type PurposeFieldProblem } from "@/components/ui/purpose-field";
import { compareWithRecords, hasDifference, type RecordSubject } from "@/lib/lookups/compare";
import { useRecordLookup } from "@/lib/lookups/hooks";
import { LOOKUP_SOURCES, purposeProblem } from "@/lib/lookups/rules";
import { ApiRequestError } from "@/lib/shared/api-client/api-request";
import { cpfProblem, type CpfProblem } from "@/lib/shared/cpf";

import { RecordComparisonTable } from "./record-comparison-table";
import { RECORD_KEY, useRecordKey } from "./use-record-key";

const fieldsOf = (error: unknown) => (error instanceof ApiRequestError && error.code === "validation" ? error.fields : []);

/**
 * The document's data beside the person's record: the fields the service gives for the verification (masked or not,
 * as the member may see them), and, once looked up, the federal revenue record and the CPF enrichment in the same
 * rows, each field said to match, differ or not be comparable. A member holding `lookups.run` asks with the button or
 * `l`: the purpose comes filled in (kept on the trail), each source is one lookup of their quota, and the CPF stays
 * on the server (POST /api/verifications/:publicId/record), typed only where the service shows it masked. The
 * records live in this component only: a reload forgets them.
 */
export function DocumentRecordComparison({ verification, canLookUp }: { verification: RecordSubject; canLookUp: boolean }) {
  const t = useTranslations("verifications.record");
  const te = useTranslations("lookups.errors");
  const errorMessage = useLookupErrorMessage();
  const lookup = useRecordLookup(verification.publicId);
  const form = useRef<HTMLFormElement>(null);
  const ids = useId();
  const [purpose, setPurpose] = useState(() => t("purposeDefault"));
  const [cpf, setCpf] = useState("");
  const [problems, setProblems] = useState<{ purpose?: PurposeFieldProblem; cpf?: CpfProblem | "server" }>({});
  // The service shows the document masked: the server cannot read the CPF, so the member types it (and it must match).
  const needsCpf = verification.documentMasked && verification.maskedBy !== "dashboard";
  const results = lookup.data?.results ?? [];
  const rows = compareWithRecords(verification, results);
  const refused = fieldsOf(lookup.error);

  useRecordKey(
    canLookUp,
    useCallback(() => form.current?.requestSubmit(), []),
  );

  function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (lookup.isPending) return;
    const next = { purpose: purposeProblem(purpose), cpf: needsCpf ? cpfProblem(cpf) : undefined };
    setProblems(next);
    if (focusFirstProblem({ [`${ids}-cpf`]: next.cpf, [`${ids}-purpose`]: next.purpose })) return;
    lookup.mutate({ purpose: purpose.trim(), sources: [...LOOKUP_SOURCES], ...(needsCpf ? { cpf } : {}) });
  }

  return (
    <section aria-labelledby="record-heading" className="rounded-lg border border-slate-200 bg-white p-4" data-testid="document-record">
      <h2 id="record-heading" className="text-lg font-semibold">
        {t("heading")}
      </h2>
      <p className="text-sm text-slate-600">{t("intro")}</p>
      <RecordComparisonTable rows={rows} sources={results.map((result) => result.source)} />
      <p role="status" className="mt-2 text-sm font-medium">
        {results.length === 0 ? null : hasDifference(rows) ? (
          <span className="text-red-800">{t("summaryDiffers")}</span>
        ) : (
          <span className="text-slate-700">{t("summaryNoDifference")}</span>
        )}
      </p>
      {!canLookUp ? (
        <p className="mt-2 text-sm text-slate-600">{t("noPermission")}</p>
      ) : (
        <form ref={form} noValidate onSubmit={submit} className="mt-3 space-y-3" aria-describedby={`${ids}-quota`}>
          <fieldset disabled={lookup.isPending} className="space-y-3">
            <legend className="sr-only">{t("legend")}</legend>
            {needsCpf ? (
              <CpfField
                id={`${ids}-cpf`}
                label={t("cpf")}
                hint={t("cpfHint")}
                value={cpf}
                onValueChange={(value) => {
                  setCpf(value);
                  setProblems((current) => ({ ...current, cpf: undefined }));
                }}
                problem={problems.cpf ?? (refused.includes("cpf") ? "server" : undefined)}
                messages={(problem) => (problem === "server" ? t("cpfNotThis") : te(`cpf.${problem}`))}
              />
            ) : null}
            <PurposeField
              id={`${ids}-purpose`}
              label={t("purpose")}
              hint={t("purposeHint")}
              value={purpose}
              className="max-w-2xl"
              onValueChange={(value) => {
                setPurpose(value);
                setProblems((current) => ({ ...current, purpose: undefined }));
              }}
              problem={problems.purpose ?? (refused.includes("purpose") ? "content" : undefined)}
              messages={(problem, bounds) => te(`purpose.${problem}`, bounds)}
            />
            <div className="flex flex-wrap items-center gap-3">
              <Button type="submit" pending={lookup.isPending} aria-keyshortcuts={RECORD_KEY}>
                {lookup.isPending ? t("submitting") : results.length > 0 ? t("again") : t("submit")}
              </Button>
              <span className="text-sm text-slate-600">{t("key", { key: RECORD_KEY })}</span>
            </div>
            <p id={`${ids}-quota`} className="text-xs text-slate-600">
              {t("quota")}
            </p>
          </fieldset>
        </form>
      )}
      {lookup.isError && refused.length === 0 ? (
        <div className="mt-3">
          <Alert tone={lookup.error instanceof ApiRequestError && lookup.error.code === "rate_limited" ? "warning" : "error"}>
            <p>{errorMessage(lookup.error)}</p>
          </Alert>
        </div>
      ) : null}
    </section>
  );
}
