import { json, route } from "@/lib/api/route";
import { listReports } from "@/lib/cases/server/suspicious-activity";

export const dynamic = "force-dynamic";

// GET /api/suspicious-activity – this connection's suspicious-activity reports to COAF, drafts first: status, case,
// masked document, deadline (the case's decision, or opening, plus COAF_REPORT_DEADLINE_DAYS) and whether overdue.
export const GET = route({ permission: "coaf.report" }, async ({ db }) => json(await listReports(db)));
