import { attachment, route } from "@/lib/api/route";
import { reportDossier } from "@/lib/cases/server/suspicious-activity-dossier";
import { suspiciousActivityPdf } from "@/lib/cases/server/suspicious-activity-pdf";
import { dossierQuerySchema, suspiciousActivityParamsSchema } from "@/lib/cases/suspicious-activity";
import { requestLocale } from "@/lib/i18n/request-locale";

export const dynamic = "force-dynamic";

// GET /api/suspicious-activity/{id}/dossier?format=json|pdf – the report's dossier: the report, the verification
// (masked, no images), the decisions with their reasons, the case's history and the same person's other
// verifications. Audited as `coaf.dossier_export` on the report, never on the person (no tipping off).
export const GET = route(
  { permission: "coaf.report", sideEffects: true, params: suspiciousActivityParamsSchema, query: dossierQuerySchema },
  async ({ db, user, request, context, params, query: { format } }) => {
    const dossier = await reportDossier(db, { ...context, actor: { id: user.id, email: user.email } }, params.id, format);
    const name = `coaf-dossier-${dossier.report.casePublicId}.${format}`;
    if (format === "json") return attachment(JSON.stringify(dossier, null, 2), "application/json; charset=utf-8", name);
    return attachment(new Uint8Array(await suspiciousActivityPdf(dossier, requestLocale(request))), "application/pdf", name);
  },
);
