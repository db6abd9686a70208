import { json, route } from "@/lib/api/route";
import { audited } from "@/lib/audit-trail/server";
import { listQueue } from "@/lib/cases/server/queue";
import { queueQuerySchema } from "@/lib/cases/validation";

// GET /api/cases?queue=open|mine|unassigned|confirming|closed&sort=&flag=&overdue=&age=&closed_from=&closed_to=
// &disagreement=&page=&per_page= – the review queue.
export const GET = route({ permission: "cases.read", query: queueQuerySchema }, async ({ db, user, context, query, connection }) => {
  const data = await audited(
    context,
    {
      action: "case.list",
      details: { queue: query.queue, sort: query.sort, flag: query.flag ?? null, age: query.age ?? null },
      detailsOf: (list) => ({ count: list.items.length }),
    },
    async () => listQueue(db, connection.id, query, user),
  );
  return json(data);
});
