import { attachment, json, route } from "@/lib/api/route";
import { requestLocale } from "@/lib/i18n/request-locale";
import { titularReportCsv } from "@/lib/privacy/server/titular-csv";
import { titularReportPdf } from "@/lib/privacy/server/titular-pdf";
import { requestTitularReport } from "@/lib/privacy/server/titular-report";
import { reportFileName, type ReportFormat } from "@/lib/privacy/titular";
import { titularReportSchema } from "@/lib/privacy/validation";

// POST /api/privacy/reports – {cpf, format?, locale?}: the titular report (LGPD art. 18 and 19) as JSON, CSV or
// PDF (also picked by `Accept: application/pdf`). The CPF travels in this body only; the request is audited as
// `privacy.report` with the CPF's keyed hash (and mask) as its target. Step-up: it reveals a person's history.
export const POST = route(
  { permission: "privacy.report", stepUp: true, body: titularReportSchema },
  async ({ db, request, context, body: { cpf, format: asked, locale: chosen } }) => {
    const format: ReportFormat = asked ?? (/\bapplication\/pdf\b/.test(request.headers.get("accept") ?? "") ? "pdf" : "json");
    const locale = chosen ?? requestLocale(request);
    const report = await requestTitularReport(db, context, { cpf, format, locale });
    if (format === "json") return json(report);
    const name = reportFileName(format, report.generatedAt);
    if (format === "csv") return attachment(titularReportCsv(report), "text/csv; charset=utf-8", name);
    return attachment(new Uint8Array(await titularReportPdf(report)), "application/pdf", name);
  },
);
