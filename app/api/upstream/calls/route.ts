import { json, route } from "@/lib/api/route";
import { upstreamCallsReport } from "@/lib/integrations/server/upstream-calls";
import type { UpstreamCallsReport } from "@/lib/integrations/types";

// GET /api/upstream/calls – the connection's calls to the service today and this week, per route or job and operation
// (counts only).
// `integrations.manage`: the calls spend the provider key's quota, which is the integration admins' to look after.
export const GET = route({ permission: "integrations.manage" }, async ({ db, connection }) =>
  json<UpstreamCallsReport>(await upstreamCallsReport(db, connection.id)),
);
