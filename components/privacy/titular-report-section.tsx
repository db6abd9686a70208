"use client";

import { useTranslations } from "next-intl";
import { useState } from "react";

import { TitularReportForm, type TitularReportAsk } from "@/components/privacy/titular-report-form";
import { TitularReportView } from "@/components/privacy/titular-report-view";
import { Alert } from "@/components/ui/alert";
import { TitledSection } from "@/components/ui/titled-section";
import { downloadTitularReport, postTitularReport } from "@/lib/privacy/browser-requests";
import type { ReportFormat } from "@/lib/privacy/titular";
import { refusalOf } from "@/lib/shared/api-client/api-request";
import { useRequest } from "@/lib/shared/api-client/use-request";

/**
 * What the dashboard holds about one person (a titular's report): asked by CPF, shown on the page (JSON)
 * or downloaded as a file; a CPF the server refuses is marked on the form's field, any other failure below it.
 */
export function TitularReportSection() {
  const t = useTranslations();
  const report = useRequest(postTitularReport);
  const download = useRequest(downloadTitularReport);
  const [asked, setAsked] = useState<ReportFormat | null>(null);
  const error = asked === "json" ? report.error : asked ? download.error : null;
  const pending: ReportFormat | null = report.isPending ? "json" : download.isPending ? asked : null;
  const refusal = refusalOf(error);
  const cpfRefused = refusal?.code === "validation" && refusal.fields.includes("cpf");

  function ask({ format, ...input }: TitularReportAsk) {
    setAsked(format);
    if (format === "json") report.mutate(input);
    else download.mutate({ ...input, format });
  }

  function message(failure: unknown): string {
    const code = refusalOf(failure)?.code;
    if (code && t.has(`errors.${code}`)) return t(`errors.${code}`);
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
