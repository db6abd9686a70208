"use client";

import { useTranslations } from "next-intl";
import { useId, useState, type FormEvent } from "react";

import { Alert, SuccessNotice } from "@/components/ui/alert";
import { Button } from "@/components/ui/button";
import { CpfField, type CpfFieldProblem } from "@/components/ui/cpf-field";
import { focusFirstProblem } from "@/components/ui/focus-first-problem";
import { useRefreshingRequest } from "@/components/ui/use-refreshing-request";
import { postErasure } from "@/lib/privacy/browser-requests";
import { erasureReasonProblem, MAX_ERASURE_REASON_LENGTH, type ErasureReasonProblem } from "@/lib/privacy/erasure";
import { refusalOf } from "@/lib/shared/api-client/api-request";
import { cpfProblem } from "@/lib/shared/cpf";

import { useErasureErrorText } from "./erasure-error-text";

/*
 * Asking for an erasure (./erasure-panel.tsx): the CPF (checked here first, sent in the body only) and the reason (no
 * CPF in it). A fresh second factor is asked in place when the server wants one. Once asked, the page is drawn again
 * with the request waiting for a second member, and the notice here says so.
 */

export function ErasureRequestForm() {
  const t = useTranslations("erasure");
  const errorText = useErasureErrorText();
  const [notice, setNotice] = useState<string | null>(null);
  const ask = useRefreshingRequest(postErasure);
  const id = useId();
  const [cpf, setCpf] = useState("");
  const [reason, setReason] = useState("");
  const [cpfError, setCpfError] = useState<CpfFieldProblem | undefined>();
  const [reasonError, setReasonError] = useState<ErasureReasonProblem | "server" | undefined>();
  const reasonId = `${id}-reason`;

  function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (ask.isPending) return;
    const cpfIssue = cpfProblem(cpf);
    const reasonIssue = erasureReasonProblem(reason);
    setCpfError(cpfIssue);
    setReasonError(reasonIssue);
    if (focusFirstProblem({ [`${id}-cpf`]: cpfIssue, [reasonId]: reasonIssue })) return;
    setNotice(null);
    ask.mutate(
      { cpf, reason: reason.trim() },
      {
        onSuccess: ({ erasure }) => {
          setCpf("");
          setReason("");
          setNotice(t("form.sent", { document: erasure.documentMasked }));
        },
        onError: (error) => {
          const refusal = refusalOf(error);
          if (refusal?.code !== "validation") return;
          if (refusal.fields.includes("cpf")) setCpfError("server");
          if (refusal.fields.includes("reason")) setReasonError("server");
        },
      },
    );
  }

  const failed = ask.error && refusalOf(ask.error)?.code !== "validation";
  return (
    <>
      <form
        noValidate
        onSubmit={submit}
        aria-labelledby={`${id}-title`}
        className="space-y-4 rounded-xl border border-slate-200 bg-white p-5 shadow-sm"
      >
        <h3 id={`${id}-title`} className="text-base font-semibold text-slate-900">
          {t("form.heading")}
        </h3>
        <CpfField
          id={`${id}-cpf`}
          label={t("form.cpf")}
          hint={t("form.cpfHint")}
          problem={cpfError}
          messages={(problem) => t(`cpfProblems.${problem}`)}
          value={cpf}
          onValueChange={(value) => {
            setCpf(value);
            setCpfError(undefined);
          }}
          disabled={ask.isPending}
        />
        <div>
          <label htmlFor={reasonId} className="block text-sm font-medium text-slate-800">
            {t("form.reason")}
          </label>
          <textarea
            id={reasonId}
            name="reason"
            required
            rows={3}
            maxLength={MAX_ERASURE_REASON_LENGTH + 100}
            value={reason}
            disabled={ask.isPending}
            aria-invalid={reasonError ? true : undefined}
            aria-describedby={[`${reasonId}-hint`, reasonError ? `${reasonId}-error` : null].filter(Boolean).join(" ")}
            onChange={(event) => {
              setReason(event.target.value);
              setReasonError(undefined);
            }}
            className={`mt-1 block w-full max-w-2xl rounded-md border px-3 py-2 text-sm shadow-sm ${reasonError ? "border-red-600" : "border-slate-300"} focus:border-brand-600`}
          />
          <p id={`${reasonId}-hint`} className="mt-1 max-w-2xl text-xs text-slate-600">
            {t("form.reasonHint")}
          </p>
          {reasonError ? (
            <p id={`${reasonId}-error`} className="mt-1 text-sm text-red-700">
              {t(`reasonProblems.${reasonError}`, { max: MAX_ERASURE_REASON_LENGTH })}
            </p>
          ) : null}
        </div>
        <div aria-live="assertive">{failed ? <Alert tone="error">{errorText(ask.error, "requestConflict")}</Alert> : null}</div>
        <Button type="submit" pending={ask.isPending}>
          {t("form.submit")}
        </Button>
      </form>
      <SuccessNotice>{notice}</SuccessNotice>
    </>
  );
}
