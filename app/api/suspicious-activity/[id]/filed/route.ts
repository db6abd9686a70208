import { json, route } from "@/lib/api/route";
import { fileReport } from "@/lib/cases/server/suspicious-activity";
import { fileSuspiciousActivitySchema, suspiciousActivityParamsSchema } from "@/lib/cases/suspicious-activity";

export const dynamic = "force-dynamic";

// POST /api/suspicious-activity/{id}/filed – records a draft's SISCOAF protocol `{protocol, filedAt}`; 409 once filed.
// Audited as `coaf.report_filed`.
export const POST = route(
  { permission: "coaf.report", stepUp: true, params: suspiciousActivityParamsSchema, body: fileSuspiciousActivitySchema },
  async ({ db, user, context, params, body }) =>
    json({ report: await fileReport(db, { ...context, actor: { id: user.id, email: user.email } }, params.id, body) }),
);
