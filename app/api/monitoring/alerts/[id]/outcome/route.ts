import { json, route } from "@/lib/api/route";
import { decideAlert } from "@/lib/monitoring/server/alerts";
import { alertIdParams, alertOutcomeSchema } from "@/lib/monitoring/validation";

// POST /api/monitoring/alerts/:id/outcome {outcome: "cleared" | "confirmed"} – closes the alert with its outcome: the
// holder's, or a cases.assign holder's (403 otherwise). 400 naming `outcome`; audited (`monitoring.alert_outcome`).
export const POST = route(
  { permission: "cases.work", params: alertIdParams, body: alertOutcomeSchema },
  async ({ db, user, context, connection, params, body }) => {
    await decideAlert(db, { actor: user, ip: context.ip, pageView: context.pageView }, connection.id, params.id, body.outcome);
    return json({ id: params.id, outcome: body.outcome });
  },
);
