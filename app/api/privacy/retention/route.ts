import { json, route } from "@/lib/api/route";
import { retentionReport } from "@/lib/privacy/server/report";

// GET /api/privacy/retention – each kind of stored data with its days and legal reason, and the pruner's last run.
export const GET = route({ permission: "privacy.report" }, async ({ db }) => json(await retentionReport(db)));
