"use client";

import { useTranslations } from "next-intl";
import { useId, useState, type FormEvent } from "react";

import { Alert } from "@/components/ui/alert";
import { ApiAnchor } from "@/components/ui/api-anchor";
import { AppLink as Link } from "@/components/ui/app-link";
import { Badge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { Dialog } from "@/components/ui/dialog";
import { DialogFormActions } from "@/components/ui/dialog-form-actions";
import { Field } from "@/components/ui/field";
import { focusFirstProblem } from "@/components/ui/focus-first-problem";
import { QueryView } from "@/components/ui/query-view";
import { useDateTime } from "@/components/ui/use-formatters";
import { COAF_PROTOCOL_MAX_CHARS, type SuspiciousActivityDto } from "@/lib/cases/coaf";
import { dossierHref, useCoafReports, useFileCoafReport } from "@/lib/cases/coaf-hooks";
import { ApiRequestError } from "@/lib/shared/api-client/api-request";

/*
 * The reports page (/compliance/coaf): every report of this connection, drafts first (the API's order), each with its
 * case, masked document, grounds, status, opening, deadline (overdue in words and colour, not colour alone) and
 * protocol; each row downloads its dossier (JSON, PDF) and a draft records its SISCOAF protocol (step-up asked by the
 * API client). The table scrolls inside its own box on a phone.
 */
export function CoafReports() {
  const t = useTranslations("coaf.page");
  const list = useCoafReports();
  const [notice, setNotice] = useState<string | null>(null);
  return (
    <div className="space-y-4">
      <div aria-live="polite">{notice ? <Alert tone="success">{notice}</Alert> : null}</div>
      <QueryView query={list} failed={t("loadFailed")} retryLabel={t("retry")} loading={t("loading")}>
        {(data) => (
          <>
            <p className="max-w-3xl text-sm text-slate-600">{t("lead", { days: data.deadlineDays })}</p>
            {data.reports.length === 0 ? (
              <p className="text-sm text-slate-600">{t("empty")}</p>
            ) : (
              <ReportsTable reports={data.reports} onFiled={setNotice} />
            )}
          </>
        )}
      </QueryView>
    </div>
  );
}

function ReportsTable({ reports, onFiled }: { reports: SuspiciousActivityDto[]; onFiled: (notice: string) => void }) {
  const t = useTranslations("coaf.page");
  const tGrounds = useTranslations("coaf.grounds");
  const tFiled = useTranslations("coaf.filed");
  const dateTime = useDateTime();
  const [filing, setFiling] = useState<SuspiciousActivityDto | null>(null);
  const column = (key: string) => (
    <th scope="col" className="px-3 py-2 text-left font-medium whitespace-nowrap">
      {t(`columns.${key}`)}
    </th>
  );
  return (
    <>
      <div role="region" aria-label={t("tableLabel")} tabIndex={0} className="overflow-x-auto rounded-lg border border-slate-200 bg-white">
        <table className="min-w-full text-sm" data-testid="coaf-reports">
          <thead className="bg-slate-50 text-slate-700">
            <tr>{["case", "document", "grounds", "status", "opened", "deadline", "protocol", "actions"].map(column)}</tr>
          </thead>
          <tbody className="divide-y divide-slate-200">
            {reports.map((report) => (
              <tr
                key={report.id}
                id={`report-${report.id}`}
                data-testid="coaf-report-row"
                data-case={report.casePublicId}
                className="align-top target:bg-amber-50"
              >
                <td className="px-3 py-2">
                  <Link
                    href={`/verifications/${report.casePublicId}`}
                    className="font-mono text-xs text-brand-800 underline underline-offset-2"
                  >
                    {report.casePublicId}
                  </Link>
                </td>
                <td className="px-3 py-2 font-mono text-xs whitespace-nowrap">{report.documentMasked ?? "—"}</td>
                <td className="min-w-48 px-3 py-2">
                  <ul className="space-y-0.5">
                    {report.grounds.map((ground) => (
                      <li key={ground}>{tGrounds(ground)}</li>
                    ))}
                  </ul>
                </td>
                <td className="px-3 py-2 whitespace-nowrap" data-testid="coaf-status">
                  <Badge tone={report.status === "filed" ? "success" : "neutral"}>{t(`status.${report.status}`)}</Badge>
                </td>
                <td className="px-3 py-2 whitespace-nowrap">{dateTime(report.openedAt)}</td>
                <td className="px-3 py-2 whitespace-nowrap" data-testid="coaf-deadline">
                  <span className={report.overdue ? "font-semibold text-red-800" : undefined}>{dateTime(report.deadline)}</span>
                  {report.overdue ? (
                    <span className="ml-1">
                      <Badge tone="danger">{t("overdue")}</Badge>
                    </span>
                  ) : null}
                </td>
                <td className="px-3 py-2" data-testid="coaf-protocol">
                  {report.protocol ? (
                    <>
                      <span className="font-mono text-xs break-all">{report.protocol}</span>
                      {report.filedAt ? (
                        <span className="block text-xs text-slate-600">{t("filedAt", { at: dateTime(report.filedAt) ?? "" })}</span>
                      ) : null}
                    </>
                  ) : (
                    "—"
                  )}
                </td>
                <td className="px-3 py-2">
                  <div className="flex flex-col gap-1">
                    {(["json", "pdf"] as const).map((format) => (
                      <ApiAnchor
                        key={format}
                        href={dossierHref(report.id, format)}
                        download
                        aria-label={t("dossierLabel", { case: report.casePublicId, format: format.toUpperCase() })}
                        className="text-xs font-medium whitespace-nowrap text-brand-800 underline underline-offset-2"
                      >
                        {t(format === "json" ? "dossierJson" : "dossierPdf")}
                      </ApiAnchor>
                    ))}
                    {report.status === "draft" ? (
                      <Button
                        variant="secondary"
                        className="px-2 py-1 text-xs whitespace-nowrap"
                        aria-label={t("recordProtocolLabel", { case: report.casePublicId })}
                        onClick={() => setFiling(report)}
                      >
                        {t("recordProtocol")}
                      </Button>
                    ) : null}
                  </div>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      <Dialog
        open={filing !== null}
        onOpenChange={(open) => (open ? undefined : setFiling(null))}
        title={tFiled("title")}
        description={tFiled("description")}
      >
        {filing ? (
          <FiledForm
            key={filing.id}
            report={filing}
            onFiled={() => {
              setFiling(null);
              onFiled(tFiled("recorded"));
            }}
          />
        ) : null}
      </Dialog>
    </>
  );
}

/** Now, as a datetime-local input shows it (the member's time, to the minute). */
function localNow(): string {
  const now = new Date();
  return new Date(now.getTime() - now.getTimezoneOffset() * 60_000).toISOString().slice(0, 16);
}

function FiledForm({ report, onFiled }: { report: SuspiciousActivityDto; onFiled: () => void }) {
  const t = useTranslations("coaf.filed");
  const file = useFileCoafReport();
  const id = useId();
  const [protocol, setProtocol] = useState("");
  const [filedAt, setFiledAt] = useState(localNow);
  const [problems, setProblems] = useState<{ protocol?: "protocol" | "server"; filedAt?: "filedAt" | "server" }>({});

  function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (file.isPending) return;
    const at = new Date(filedAt);
    const found = {
      protocol: protocol.trim() === "" ? ("protocol" as const) : undefined,
      filedAt: Number.isNaN(at.getTime()) || at.getTime() > Date.now() + 60_000 ? ("filedAt" as const) : undefined,
    };
    setProblems(found);
    if (focusFirstProblem({ [`${id}-protocol`]: found.protocol, [`${id}-filed-at`]: found.filedAt })) return;
    file.mutate(
      { id: report.id, protocol: protocol.trim(), filedAt: at.toISOString() },
      {
        onSuccess: onFiled,
        onError: (error) => {
          if (!(error instanceof ApiRequestError) || error.code !== "validation") return;
          const named = {
            protocol: error.fields.includes("protocol") ? ("server" as const) : undefined,
            filedAt: error.fields.includes("filedAt") ? ("server" as const) : undefined,
          };
          setProblems(named);
          focusFirstProblem({ [`${id}-protocol`]: named.protocol, [`${id}-filed-at`]: named.filedAt });
        },
      },
    );
  }

  const failed = file.error && !(file.error instanceof ApiRequestError && file.error.code === "validation");
  const failure =
    file.error instanceof ApiRequestError && (file.error.code === "conflict" || file.error.code === "not_found")
      ? file.error.code
      : "unknown";
  return (
    <form noValidate onSubmit={submit} className="space-y-4">
      <Field
        id={`${id}-protocol`}
        label={t("protocol")}
        value={protocol}
        maxLength={COAF_PROTOCOL_MAX_CHARS}
        autoComplete="off"
        disabled={file.isPending}
        error={problems.protocol ? t(`problems.${problems.protocol}`) : undefined}
        onChange={(event) => {
          setProtocol(event.target.value);
          setProblems((current) => ({ ...current, protocol: undefined }));
        }}
      />
      <Field
        id={`${id}-filed-at`}
        type="datetime-local"
        label={t("filedAt")}
        hint={t("filedAtHint")}
        value={filedAt}
        disabled={file.isPending}
        error={problems.filedAt ? t(`problems.${problems.filedAt}`) : undefined}
        onChange={(event) => {
          setFiledAt(event.target.value);
          setProblems((current) => ({ ...current, filedAt: undefined }));
        }}
      />
      <div aria-live="assertive">{failed ? <Alert tone="error">{t(`errors.${failure}`)}</Alert> : null}</div>
      <DialogFormActions cancelLabel={t("cancel")} submitLabel={t("submit")} pending={file.isPending} />
    </form>
  );
}
