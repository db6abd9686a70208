import { z } from "zod";

import { json, route } from "@/lib/api/route";
import { RECOMMENDATIONS } from "@/lib/cases/rules";
import { caseContext } from "@/lib/cases/server/api";
import { createTemplate, listTemplates } from "@/lib/cases/server/templates";
import { createTemplateSchema } from "@/lib/cases/template-validation";

export const dynamic = "force-dynamic";

const query = z.object({ kind: z.enum(RECOMMENDATIONS).optional() }).strict();

// GET /api/cases/templates?kind= – the team's decision templates, then the caller's own (by kind, then name).
export const GET = route({ permission: "cases.work", query }, async ({ db, user, context, query: { kind } }) =>
  json({ templates: await listTemplates(db, caseContext(user, context).actor, kind) }),
);

// POST /api/cases/templates – {kind, scope, name, reasons, comment}: a personal template, or the team's (cases.assign,
// else 403). 400 naming the field (reasons of another kind, an unknown placeholder, a CPF); 409 on `name`. Audited.
export const POST = route({ permission: "cases.work", body: createTemplateSchema }, async ({ db, user, context, body }) =>
  json({ template: await createTemplate(db, caseContext(user, context), body) }, { status: 201 }),
);
