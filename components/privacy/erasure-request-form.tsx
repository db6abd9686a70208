"use client";

import { useTranslations } from "next-intl";
import { useId, useState, type FormEvent } from "react";

import { Alert, SuccessNotice } from "@/components/ui/alert";
import { Button } from "@/components/ui/button";
import { CpfField, type CpfFieldProblem } from "@/components/ui/cpf-field";
import { TextAreaField, TitledForm } from "@/components/ui/field";
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
      <TitledForm id={`${id}-title`} title={t("form.heading")} onSubmit={submit}>
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
        <TextAreaField
          id={reasonId}
          name="reason"
          label={t("form.reason")}
          hint={t("form.reasonHint")}
          error={reasonError ? t(`reasonProblems.${reasonError}`, { max: MAX_ERASURE_REASON_LENGTH }) : undefined}
          required
          rows={3}
          maxLength={MAX_ERASURE_REASON_LENGTH + 100}
          value={reason}
          disabled={ask.isPending}
          onChange={(event) => {
            setReason(event.target.value);
            setReasonError(undefined);
          }}
          className="max-w-2xl"
        />
        <div aria-live="assertive">{failed ? <Alert tone="error">{errorText(ask.error, "requestConflict")}</Alert> : null}</div>
        <Button type="submit" pending={ask.isPending}>
          {t("form.submit")}
        </Button>
      </TitledForm>
      <SuccessNotice>{notice}</SuccessNotice>
    </>
  );
}
