"use client";

import { useTranslations } from "next-intl";
import { useState } from "react";

import { TitularReportForm, type TitularReportAsk } from "@/components/privacy/titular-report-form";
import { TitularReportView } from "@/components/privacy/titular-report-view";
import { Alert } from "@/components/ui/alert";
import { TitledSection } from "@/components/ui/titled-section";
import { useTitularReport, useTitularReportDownload } from "@/lib/privacy/hooks";
import type { ReportFormat } from "@/lib/privacy/titular";
import { ApiRequestError } from "@/lib/shared/api-client/api-request";

/**
 * What the dashboard holds about one person (a titular's report): asked by CPF, shown on the page (JSON)
 * or downloaded as a file; a CPF the server refuses is marked on the form's field, any other failure below it.
 */
export function TitularReportSection() {
  const t = useTranslations();
  const report = useTitularReport();
  const download = useTitularReportDownload();
  const [asked, setAsked] = useState<ReportFormat | null>(null);
  const error = asked === "json" ? report.error : asked ? download.error : null;
  const pending: ReportFormat | null = report.isPending ? "json" : download.isPending ? (download.variables?.format ?? "csv") : null;
  const cpfRefused = error instanceof ApiRequestError && error.code === "validation" && error.fields.includes("cpf");

  function ask({ format, ...input }: TitularReportAsk) {
    setAsked(format);
    if (format === "json") report.mutate(input);
    else download.mutate({ ...input, format });
  }

  function message(failure: unknown): string {
    if (failure instanceof ApiRequestError && t.has(`errors.${failure.code}`)) return t(`errors.${failure.code}`);
    return t("privacy.report.errors.failed");
  }

  return (
    <TitledSection id="titular-heading" title={t("privacy.report.heading")} lead={t("privacy.report.lead")} className="space-y-4">
      <TitularReportForm pending={pending} serverCpfError={cpfRefused} onAsk={ask} />
      <div aria-live="polite" className="sr-only">
        {pending ? t("privacy.report.working") : null}
      </div>
      {error && !cpfRefused ? <Alert tone="error">{message(error)}</Alert> : null}
      {asked !== "json" && download.isSuccess ? (
        <Alert tone="success">{t("privacy.report.downloaded", { file: download.data })}</Alert>
      ) : null}
      {report.data ? <TitularReportView report={report.data} /> : null}
    </TitledSection>
  );
}
