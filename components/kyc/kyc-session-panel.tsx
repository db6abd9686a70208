"use client";

import { useTranslations } from "next-intl";
import { useState, type FormEvent } from "react";

import { Alert } from "@/components/ui/alert";
import { Badge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { CopyableSecret } from "@/components/ui/copy-button";
import { CpfField, type CpfFieldProblem } from "@/components/ui/cpf-field";
import { focusFirstProblem } from "@/components/ui/focus-first-problem";
import { PurposeField, type PurposeFieldProblem } from "@/components/ui/purpose-field";
import { RecordItem, RecordList } from "@/components/ui/record-list";
import { TitledSection } from "@/components/ui/titled-section";
import { useApiErrorMessage } from "@/components/ui/use-api-error-message";
import { useStartKycSession } from "@/lib/kyc/hooks";
import type { KycSessionResponse } from "@/lib/kyc/types";
import { ApiRequestError } from "@/lib/shared/api-client/api-request";
import { cpfProblem } from "@/lib/shared/cpf";
import { purposeProblem } from "@/lib/shared/purpose";

/** Starting a KYC session: CPF and purpose in; the widget address (with copy button and QR code), session id and status out. */
export function KycSessionPanel() {
  const t = useTranslations("kyc.session");
  const tLookups = useTranslations("lookups");
  const errorMessage = useApiErrorMessage();
  const mutation = useStartKycSession();
  const [cpf, setCpf] = useState("");
  const [cpfError, setCpfError] = useState<CpfFieldProblem | undefined>();
  const [purpose, setPurpose] = useState("");
  const [purposeError, setPurposeError] = useState<PurposeFieldProblem | undefined>();

  function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (mutation.isPending) return;
    const problem = cpfProblem(cpf);
    const purposeIssue = purposeProblem(purpose);
    setCpfError(problem);
    setPurposeError(purposeIssue);
    if (focusFirstProblem({ "kyc-cpf": problem, "kyc-purpose": purposeIssue })) return;
    mutation.mutate(
      { cpf, purpose: purpose.trim() },
      {
        onError: (error) => {
          if (!(error instanceof ApiRequestError && error.code === "validation")) return;
          if (error.fields.includes("cpf")) setCpfError("server");
          if (error.fields.includes("purpose")) setPurposeError("content");
        },
      },
    );
  }

  function reset() {
    mutation.reset();
    setCpf("");
    setCpfError(undefined);
    setPurpose("");
    setPurposeError(undefined);
    // Back to the form, for keyboard and screen reader users too.
    setTimeout(() => document.getElementById("kyc-cpf")?.focus(), 0);
  }

  return (
    <TitledSection id="kyc-session-title" title={t("title")} lead={t("description")} card>
      {mutation.isSuccess ? (
        <div className="mt-4">
          <KycSessionResult result={mutation.data} />
          <Button variant="secondary" className="mt-4" onClick={reset}>
            {t("another")}
          </Button>
        </div>
      ) : (
        <form noValidate onSubmit={submit} className="mt-4 space-y-4">
          <fieldset disabled={mutation.isPending} className="space-y-4">
            <legend className="sr-only">{t("title")}</legend>
            <CpfField
              id="kyc-cpf"
              label={t("cpf")}
              hint={t("cpfHint")}
              value={cpf}
              onValueChange={setCpf}
              onProblemChange={setCpfError}
              problem={cpfError}
              messages={(problem) => tLookups(`errors.cpf.${problem}`)}
            />
            <PurposeField
              id="kyc-purpose"
              label={tLookups("form.purpose")}
              hint={t("purposeHint")}
              value={purpose}
              onValueChange={(value) => {
                setPurpose(value);
                setPurposeError(undefined);
              }}
              problem={purposeError}
              messages={(problem, bounds) => tLookups(`errors.purpose.${problem}`, bounds)}
            />
            <Button type="submit" pending={mutation.isPending}>
              {mutation.isPending ? t("submitting") : t("submit")}
            </Button>
          </fieldset>
          {mutation.isError && cpfError !== "server" && purposeError !== "content" ? (
            <Alert tone="error" title={t("failed")}>
              {errorMessage(mutation.error)}
            </Alert>
          ) : null}
        </form>
      )}
    </TitledSection>
  );
}

function KycSessionResult({ result }: { result: KycSessionResponse }) {
  const t = useTranslations("kyc.session");
  const { session, qrCode } = result;
  const lang = safeLang(session.url);
  return (
    <div className="space-y-4">
      <Alert tone="success" title={t("startedTitle")} />
      <CopyableSecret id="kyc-widget-address" label={t("address")} hint={t("addressHint")} value={session.url} />
      <Alert tone="warning">{t("tokenWarning")}</Alert>
      <div className="flex flex-col gap-6 md:flex-row">
        {/* A data URL made on the server: no QR library in the browser. White margin for scanners. */}
        {/* eslint-disable-next-line @next/next/no-img-element */}
        <img
          src={qrCode}
          alt={t("qrAlt")}
          width={208}
          height={208}
          className="h-52 w-52 shrink-0 rounded-lg border border-slate-200 bg-white p-1"
        />
        <div className="flex-1 space-y-3">
          <h3 className="text-base font-semibold text-slate-900">{t("record")}</h3>
          <RecordList>
            <RecordItem label={t("status")} value={<Badge tone="info">{session.status}</Badge>} />
            <RecordItem
              label={t("sessionId")}
              value={
                <span className="font-mono text-xs" data-testid="kyc-session-id">
                  {session.sessionId}
                </span>
              }
              wide
            />
            <RecordItem label={t("language")} value={lang} />
          </RecordList>
        </div>
      </div>
    </div>
  );
}

function safeLang(url: string): string | null {
  try {
    return new URL(url).searchParams.get("lang");
  } catch {
    return null;
  }
}
