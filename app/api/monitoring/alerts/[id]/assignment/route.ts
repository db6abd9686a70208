import { json, route } from "@/lib/api/route";
import { takeAlert } from "@/lib/monitoring/server/alerts";
import { alertIdParams } from "@/lib/monitoring/validation";

// POST /api/monitoring/alerts/:id/assignment – the caller takes an open alert nobody holds (409 when held or closed,
// 404 unknown). The change and its audit event (`monitoring.alert_assign`) commit together.
export const POST = route({ permission: "cases.work", params: alertIdParams }, async ({ db, user, context, connection, params }) => {
  await takeAlert(db, { actor: user, ip: context.ip, pageView: context.pageView }, connection.id, params.id);
  return json({ id: params.id, assignee: user.id });
});
