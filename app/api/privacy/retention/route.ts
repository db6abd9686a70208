import { json, route } from "@/lib/api/route";
import { getDb } from "@/lib/db/client";
import { retentionReport } from "@/lib/privacy/server/report";

// GET /api/privacy/retention – each kind of stored data with its days and legal reason, and the pruner's last run.
export const GET = route({ permission: "privacy.report" }, async () => json(await retentionReport(await getDb())));
