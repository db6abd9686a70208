import { json, route } from "@/lib/api/route";
import { caseContext } from "@/lib/cases/server/api";
import { changeTakeSettings, readTakeSettings } from "@/lib/cases/server/case-settings";
import { takeSettingsSchema } from "@/lib/cases/validation";

export const dynamic = "force-dynamic";

// GET /api/cases/settings – the team's case settings: when a member takes an unassigned case (`takeMode`).
export const GET = route({ permission: "cases.assign" }, async ({ db }) => json(await readTakeSettings(db)));

// PUT /api/cases/settings – {takeMode: "on_open" | "on_decision" | "never"} (400 naming the field); audited
// (`case.settings_change`). The case page reads it with each case (GET /api/cases/:publicId).
export const PUT = route({ permission: "cases.assign", body: takeSettingsSchema }, async ({ db, user, context, body }) =>
  json(await changeTakeSettings(db, caseContext(user, context), body)),
);
