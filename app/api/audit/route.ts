import { z } from "zod";

import { csvFile, fileStamp, json, route } from "@/lib/api/route";
import { auditParamsFromSearchParams, compactFilters, CPF_SEARCH_HEADER, parseAuditListQuery } from "@/lib/audit-trail/filters";
import { exportAuditLog, refuseAuditAccess, viewAuditLog } from "@/lib/audit-trail/server/service";
import { auditPageSchema } from "@/lib/audit-trail/types";
import { hasRole } from "@/lib/auth/roles";
import { getDb } from "@/lib/db/client";
import { cpfSchema } from "@/lib/shared/cpf-schema";
import { inputError } from "@/lib/verifications/server/input";

// The search CPF comes in a header, never the URL; the schema names the header when it is not a valid CPF.
const cpfHeaderSchema = z.object({ [CPF_SEARCH_HEADER]: cpfSchema.optional() });

// GET /api/audit – audit events (admin), filtered and paged by cursor; `?format=csv` streams them all as CSV.
// Any signed-in user gets past the kit, so that an analyst's attempt is itself on the trail.
export const GET = route({}, async ({ request, user, context }) => {
  const params = new URL(request.url).searchParams;
  if (!hasRole(user.role, "admin")) await refuseAuditAccess(context, params.get("format") === "csv" ? "audit.export" : "audit.view");
  const parsed = parseAuditListQuery(auditParamsFromSearchParams(params));
  if (!parsed.ok) throw inputError(parsed.problems);
  const query = parsed.value;
  const header = request.headers.get(CPF_SEARCH_HEADER)?.trim() || undefined;
  const cpf = cpfHeaderSchema.parse({ [CPF_SEARCH_HEADER]: header })[CPF_SEARCH_HEADER];
  const filters = compactFilters(query);
  const db = await getDb();
  if (query.format === "csv") {
    return csvFile(await exportAuditLog(db, context, { filters, cpf }), `audit-${fileStamp()}.csv`);
  }
  const page = await viewAuditLog(db, context, { filters, cpf, cursor: query.cursor, limit: query.limit });
  return json(auditPageSchema.parse(page));
});
