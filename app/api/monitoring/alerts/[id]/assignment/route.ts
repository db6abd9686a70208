import { json, route } from "@/lib/api/route";
import { assignAlert } from "@/lib/monitoring/server/alerts";
import { alertAssignmentSchema, alertIdParams } from "@/lib/monitoring/validation";

// POST /api/monitoring/alerts/:id/assignment {assignee?: "me" | staff id} – the caller takes an open alert nobody holds
// (409 when held or closed, 404 unknown), or a cases.assign holder gives an open alert to a member (403 without it;
// 400 naming `assignee` for a member who cannot have it), who is told. The change and its audit event
// (`monitoring.alert_assign`) commit together.
export const POST = route(
  { permission: "cases.work", params: alertIdParams, body: alertAssignmentSchema },
  async ({ db, user, context, connection, params, body }) => {
    const actor = { actor: user, ip: context.ip, pageView: context.pageView };
    const { assigneeId } = await assignAlert(db, actor, connection.id, params.id, body?.assignee ?? "me");
    return json({ id: params.id, assignee: assigneeId });
  },
);
