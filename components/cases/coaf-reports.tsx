import { useTranslations } from "next-intl";

import { ApiAnchor } from "@/components/ui/api-anchor";
import { AppLink as Link } from "@/components/ui/app-link";
import { Badge } from "@/components/ui/badge";
import { useDateTime } from "@/components/ui/use-formatters";
import type { SuspiciousActivityDto, SuspiciousActivityListResponse } from "@/lib/cases/coaf";
import { dossierHref } from "@/lib/cases/coaf-requests";

import { CoafFiling, CoafNotice, RecordProtocolButton } from "./coaf-filing";

/*
 * The reports page (/compliance/coaf): every report of this connection, drafts first (the API's order), each with its
 * case, masked document, grounds, status, opening, deadline (overdue in words and colour, not colour alone) and
 * protocol; each row downloads its dossier (JSON, PDF) and a draft records its SISCOAF protocol (step-up asked by the
 * API client). The table scrolls inside its own box on a phone. Drawn on the server; the record button is an island
 * (./coaf-filing.tsx) whose request has the page drawn again.
 */
export function CoafReports({ data }: { data: SuspiciousActivityListResponse }) {
  const t = useTranslations("coaf.page");
  return (
    <CoafFiling>
      <div className="space-y-4">
        <CoafNotice />
        <p className="max-w-3xl text-sm text-slate-600">{t("lead", { days: data.deadlineDays })}</p>
        {data.reports.length === 0 ? <p className="text-sm text-slate-600">{t("empty")}</p> : <ReportsTable reports={data.reports} />}
      </div>
    </CoafFiling>
  );
}

function ReportsTable({ reports }: { reports: SuspiciousActivityDto[] }) {
  const t = useTranslations("coaf.page");
  const tGrounds = useTranslations("coaf.grounds");
  const dateTime = useDateTime();
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
                    {report.status === "draft" ? <RecordProtocolButton report={report} /> : null}
                  </div>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </>
  );
}
