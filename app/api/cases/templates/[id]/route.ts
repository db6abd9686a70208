import { z } from "zod";

import { json, route } from "@/lib/api/route";
import { caseContext } from "@/lib/cases/server/api";
import { retireTemplate, updateTemplate } from "@/lib/cases/server/templates";
import { updateTemplateSchema } from "@/lib/cases/template-validation";

const params = z.object({ id: z.uuid("must be a template id") });

// PATCH /api/cases/templates/:id – {kind?, name?, reasons?, comment?} of the caller's own template, or the team's
// (cases.assign, else 403); another member's is 404. The same checks as POST. Audited.
export const PATCH = route(
  { permission: "cases.work", params, body: updateTemplateSchema },
  async ({ db, user, context, params: { id }, body }) => json({ template: await updateTemplate(db, caseContext(user, context), id, body) }),
);

// DELETE /api/cases/templates/:id – retires the template (same rights as PATCH). Audited.
export const DELETE = route({ permission: "cases.work", params }, async ({ db, user, context, params: { id } }) => {
  await retireTemplate(db, caseContext(user, context), id);
  return json({ retired: id });
});
