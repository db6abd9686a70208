import { json, route } from "@/lib/api/route";
import { audited } from "@/lib/audit-trail/server";
import { listQueues } from "@/lib/cases/server/routing";
import { listAlerts } from "@/lib/monitoring/server/alerts";
import { alertListSchema } from "@/lib/monitoring/validation";

export const dynamic = "force-dynamic";

// GET /api/monitoring/alerts?status=open|closed&queue_id= – the monitoring queue of the request's connection (of one of
// the team's queues when `queue_id` is given): what the ongoing screening found changed (docs/compliance.md, "Ongoing screening"), newest first, the document masked, with the team's queues
// (the queue selector). Audited as a read (`monitoring.alert_list`).
export const GET = route({ permission: "cases.read", query: alertListSchema }, async ({ db, context, query, connection }) => {
  const alerts = await audited(
    context,
    {
      action: "monitoring.alert_list",
      details: { status: query.status, ...(query.queue_id ? { queue: query.queue_id } : {}) },
      detailsOf: (list) => ({ count: list.length }),
    },
    () => listAlerts(db, connection.id, query.status, query.queue_id),
  );
  return json({ alerts, queues: await listQueues(db) });
});
