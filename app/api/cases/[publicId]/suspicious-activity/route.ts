import { z } from "zod";

import { json, route } from "@/lib/api/route";
import { openReport } from "@/lib/cases/server/suspicious-activity";
import { openSuspiciousActivitySchema } from "@/lib/cases/suspicious-activity";
import { publicIdSchema } from "@/lib/verifications/validation";

export const dynamic = "force-dynamic";

// POST /api/cases/{publicId}/suspicious-activity – opens a draft suspicious-activity report to COAF from the case
// `{summary, grounds, operations?}` (the summary sealed like a case note); audited as `coaf.report_open`, targeting
// the report, never the verification. Nothing reaches the case's history or the person (Lei 9.613/98 art. 11 §2).
export const POST = route(
  { permission: "coaf.report", stepUp: true, params: z.object({ publicId: publicIdSchema }), body: openSuspiciousActivitySchema },
  async ({ db, user, context, params: { publicId }, body }) =>
    json({ report: await openReport(db, { ...context, actor: { id: user.id, email: user.email } }, publicId, body) }, { status: 201 }),
);
