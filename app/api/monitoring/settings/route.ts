import { json, route } from "@/lib/api/route";
import { config } from "@/lib/config";
import { changeBudget, readBudget } from "@/lib/monitoring/server/settings";
import { budgetSchema } from "@/lib/monitoring/validation";

export const dynamic = "force-dynamic";

// GET /api/monitoring/settings – the screening's daily budget of upstream calls, spent today and left.
export const GET = route({ permission: "cases.assign" }, async ({ db }) => json(await readBudget(db, config().displayTimeZone)));

// PUT /api/monitoring/settings {dailyBudget} (400 naming the field) – sets it; audited (`monitoring.settings_change`).
export const PUT = route({ permission: "cases.assign", body: budgetSchema }, async ({ db, context, body }) =>
  json(await changeBudget(db, context, body.dailyBudget, config().displayTimeZone)),
);
