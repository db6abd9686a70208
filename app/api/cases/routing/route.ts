import { json, route } from "@/lib/api/route";
import { routingConfigSchema } from "@/lib/cases/routing-validation";
import { caseContext } from "@/lib/cases/server/api";
import { autoAssign, waitingCases } from "@/lib/cases/server/auto-assign";
import { readRouting, replaceRouting } from "@/lib/cases/server/routing";

export const dynamic = "force-dynamic";

// GET /api/cases/routing – the team's queues (members, leads), rules in order, auto-assignment and capacity.
export const GET = route({ permission: "cases.assign" }, async ({ db }) => json(await readRouting(db)));

// PUT /api/cases/routing – replaces the whole configuration in one transaction (400 naming the field);
// queues left out are retired, the default one cannot be. Turning auto-assignment on assigns what waits.
export const PUT = route({ permission: "cases.assign", body: routingConfigSchema }, async ({ db, user, context, body }) => {
  const config = await replaceRouting(db, caseContext(user, context), body);
  if (config.autoAssign) await autoAssign(db, await waitingCases(db));
  return json(config);
});
