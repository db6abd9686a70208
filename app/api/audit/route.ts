import { NextResponse } from "next/server";
import { z } from "zod";

import { toErrorResponse } from "@/lib/api/errors";
import { auditListQuerySchema, auditParamsFromSearchParams, compactFilters, CPF_SEARCH_HEADER } from "@/lib/audit-trail/filters";
import { exportAuditLog, refuseAuditAccess, viewAuditLog } from "@/lib/audit-trail/service";
import { auditPageSchema } from "@/lib/audit-trail/types";
import { clientAddress } from "@/lib/auth/address";
import { requireUser } from "@/lib/auth/require-role";
import { hasRole } from "@/lib/auth/roles";
import { config } from "@/lib/config";
import { getDb } from "@/lib/db/client";
import { cpfSchema } from "@/lib/validations/cpf";

// The search CPF comes in a header, never the URL; the schema names the header when it is not a valid CPF.
const cpfHeaderSchema = z.object({ [CPF_SEARCH_HEADER]: cpfSchema.optional() });

// GET /api/audit – audit events (admin), filtered and paged by cursor; `?format=csv` streams them all as CSV.
export async function GET(request: Request) {
  try {
    // Any signed-in user gets this far, so that an analyst's attempt is itself on the trail.
    const user = await requireUser(request, "analyst");
    const params = new URL(request.url).searchParams;
    const viewer = { actor: { id: user.id, email: user.email }, ip: clientAddress(request.headers, config().trustedProxies) };
    if (!hasRole(user.role, "admin")) await refuseAuditAccess(viewer, params.get("format") === "csv" ? "audit.export" : "audit.view");

    const query = auditListQuerySchema.parse(auditParamsFromSearchParams(params));

    const cpf = cpfHeaderSchema.parse({ [CPF_SEARCH_HEADER]: request.headers.get(CPF_SEARCH_HEADER)?.trim() || undefined })[
      CPF_SEARCH_HEADER
    ];
    const filters = compactFilters(query);
    const db = await getDb();

    if (query.format === "csv") {
      const stream = await exportAuditLog(db, viewer, { filters, cpf });
      const stamp = new Date().toISOString().replace(/[-:]/g, "").replace(/\..*$/, "").replace("T", "-");
      return new Response(stream, {
        headers: {
          "Content-Type": "text/csv; charset=utf-8",
          "Content-Disposition": `attachment; filename="audit-${stamp}.csv"`,
          "Cache-Control": "no-store",
          "X-Content-Type-Options": "nosniff",
        },
      });
    }

    const page = await viewAuditLog(db, viewer, { filters, cpf, cursor: query.cursor, limit: query.limit });
    return NextResponse.json(auditPageSchema.parse(page), { headers: { "Cache-Control": "no-store" } });
  } catch (error) {
    return toErrorResponse(error);
  }
}
