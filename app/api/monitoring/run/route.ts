import { json, route } from "@/lib/api/route";
import { runMonitoring } from "@/lib/monitoring/server/schedule";
import { runSchema } from "@/lib/monitoring/validation";

// POST /api/monitoring/run {limit?} – screens the people the dashboard approved now, oldest screening first, within
// what is left of the day's budget (docs/compliance.md, "Ongoing screening"). Its intent goes on the trail before any
// upstream call (`monitoring.run`). Answers what it did: screened, failed, alerts opened, calls, budget left;
// `ran: false` while another instance holds the screening's lease.
export const POST = route({ permission: "cases.assign", body: runSchema }, async ({ context, body }) =>
  json(await runMonitoring({ context, limit: body?.limit })),
);
