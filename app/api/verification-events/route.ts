import { z } from "zod";

import { json, route } from "@/lib/api/route";
import { listChangesSince } from "@/lib/webhooks/server/store";

// GET /api/verification-events?after=N – what the service's webhooks recorded for the request's connection after
// cursor N (without
// `after`: the current cursor only). Open lists poll it: it reads the dashboard's own store, never the
// service. Not put on the audit trail: pages poll it every few seconds, and it holds only ids, event
// names and statuses, which the audited list and detail views already show.
export const GET = route(
  {
    permission: "verifications.read",
    query: z.object({ after: z.coerce.number().int().min(0).max(Number.MAX_SAFE_INTEGER).optional() }).strict(),
  },
  async ({ db, connection, query }) => json(await listChangesSince(db, connection.id, query.after)),
);
