import { z } from "zod";

import { csvFile, fileStamp, json, route } from "@/lib/api/route";
import { auditParamsFromSearchParams, compactFilters, CPF_SEARCH_HEADER, parseAuditListQuery } from "@/lib/audit-trail/filters";
import { exportAuditLog, refuseAuditAccess, viewAuditLog } from "@/lib/audit-trail/server/service";
import { auditPageSchema } from "@/lib/audit-trail/types";
import { hasPermission } from "@/lib/auth/permissions";
import { getDb } from "@/lib/db/client";
import { cpfSchema } from "@/lib/shared/cpf-schema";
import { inputError } from "@/lib/verifications/server/input";

// The search CPF comes in a header, never the URL; the schema names the header when it is not a valid CPF.
const cpfHeaderSchema = z.object({ [CPF_SEARCH_HEADER]: cpfSchema.optional() });

const isCsv = (request: Request) => new URL(request.url).searchParams.get("format") === "csv";

// GET /api/audit – audit events (audit.read), filtered and paged by cursor; `?format=csv` streams them all as
// CSV (audit.export too). A refused attempt is itself on the trail.
export const GET = route(
  {
    permission: "audit.read",
    // `?format=csv` hands out the trail as a file.
    sideEffects: true,
    denied: ({ request, context }) => refuseAuditAccess(context, isCsv(request) ? "audit.export" : "audit.view"),
  },
  async ({ request, user, context }) => {
    const params = new URL(request.url).searchParams;
    if (isCsv(request) && !hasPermission(user, "audit.export")) await refuseAuditAccess(context, "audit.export");
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
  },
);
