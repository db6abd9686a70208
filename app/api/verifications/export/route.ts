import { toErrorResponse } from "@/lib/api/errors";
import { requireUser } from "@/lib/auth/require-role";
import { parseVerificationFilters } from "@/lib/validations/verifications";
import { auditContext } from "@/lib/verifications/audit";
import { auditedVerificationExport } from "@/lib/verifications/export";
import { inputError } from "@/lib/verifications/input";

// GET /api/verifications/export – the filtered list as CSV, streamed, with its total in X-Total-Count. The
// same filters as the list (its per_page and page are ignored: the export reads every page).
export async function GET(request: Request) {
  try {
    const user = await requireUser(request, "analyst");
    const parsed = parseVerificationFilters(new URL(request.url).searchParams);
    if (!parsed.ok) throw inputError(parsed.problems);
    const exported = await auditedVerificationExport(auditContext(user, request.headers), parsed.filters);
    const stamp = new Date().toISOString().replace(/[-:]/g, "").replace(/\..*$/, "").replace("T", "-");
    return new Response(exported.stream, {
      headers: {
        "Content-Type": "text/csv; charset=utf-8",
        "Content-Disposition": `attachment; filename="verifications-${stamp}.csv"`,
        "Cache-Control": "no-store",
        "X-Content-Type-Options": "nosniff",
        "X-Total-Count": String(exported.total),
        "X-Export-Complete": String(exported.complete),
      },
    });
  } catch (error) {
    return toErrorResponse(error);
  }
}
