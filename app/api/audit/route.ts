import { z } from "zod";

import { csvFile, fileStamp, json, queryRecord, route } from "@/lib/api/route";
import { auditParamsFromSearchParams, compactFilters, CPF_SEARCH_HEADER, parseAuditListQuery } from "@/lib/audit-trail/filters";
import { exportAuditLog, refuseAuditAccess, viewAuditLog } from "@/lib/audit-trail/server/service";
import { auditPageSchema } from "@/lib/audit-trail/types";
import { hasPermission } from "@/lib/auth/permissions";
import { cpfSchema } from "@/lib/shared/cpf-schema";
import { querySchemaFromParser } from "@/lib/shared/from-parser";

// The search CPF comes in a header, never the URL; the schema names the header when it is not a valid CPF.
const cpfHeaderSchema = z.object({ [CPF_SEARCH_HEADER]: cpfSchema.optional() });

// The query, read once: `format` (trimmed, `json` or `csv`) decides both the permission asked and the answer.
const auditQuerySchema = querySchemaFromParser((params) => parseAuditListQuery(auditParamsFromSearchParams(params)));

/** For a refusal's trail entry only: whether the refused request asked for the CSV, read by the same schema. */
function askedCsv(request: Request): boolean {
  try {
    return z.parse(auditQuerySchema, queryRecord(request)).format === "csv";
  } catch {
    return false;
  }
}

// GET /api/audit – audit events (audit.read), filtered and paged by cursor; `?format=csv` streams them all as
// CSV (audit.export too). A refused attempt is itself on the trail.
export const GET = route(
  {
    permission: "audit.read",
    // `?format=csv` hands out the trail as a file.
    sideEffects: true,
    query: auditQuerySchema,
    denied: ({ request, context }) => refuseAuditAccess(context, askedCsv(request) ? "audit.export" : "audit.view"),
  },
  async ({ db, request, user, context, query }) => {
    if (query.format === "csv" && !hasPermission(user, "audit.export")) await refuseAuditAccess(context, "audit.export");
    const header = request.headers.get(CPF_SEARCH_HEADER)?.trim() || undefined;
    const cpf = cpfHeaderSchema.parse({ [CPF_SEARCH_HEADER]: header })[CPF_SEARCH_HEADER];
    const filters = compactFilters(query);
    const seesCoaf = hasPermission(user, "coaf.report");
    if (query.format === "csv") {
      return csvFile(await exportAuditLog(db, context, { filters, cpf, seesCoaf }), `audit-${fileStamp()}.csv`);
    }
    const page = await viewAuditLog(db, context, { filters, cpf, seesCoaf, cursor: query.cursor, limit: query.limit });
    return json(auditPageSchema.parse(page));
  },
);
