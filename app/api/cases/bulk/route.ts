import { json, route } from "@/lib/api/route";
import { bulkSchema } from "@/lib/cases/routing-validation";
import { caseContext } from "@/lib/cases/server/api";
import { bulkCases } from "@/lib/cases/server/bulk";

// POST /api/cases/bulk – {action: assign | unassign | move, publicIds (≤ 100), assignee?, queue?} → a result
// per case: each done on its own, exactly as the single-case action, so one refused leaves the others done.
// Assign and move need cases.assign (403 for the whole request); unassigning one's own cases, cases.work.
export const POST = route({ permission: "cases.work", body: bulkSchema }, async ({ db, user, context, body }) =>
  json(await bulkCases(db, caseContext(user, context), body)),
);
