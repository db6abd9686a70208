import { csvFile, fileStamp, route } from "@/lib/api/route";
import { assertStepUp } from "@/lib/auth/server/require-role";
import { auditedVerificationExport } from "@/lib/verifications/server/export";
import { filtersQuerySchema } from "@/lib/verifications/server/input";
import { seesUnmasked } from "@/lib/verifications/server/personal-data";

// GET /api/verifications/export – the filtered list as CSV, streamed, with its total in X-Total-Count. The
// same filters as the list (its per_page and page are ignored: the export reads every page).
export const GET = route(
  { permission: "verifications.export", sideEffects: true, query: filtersQuerySchema, repeatable: ["status"] },
  async ({ user, context, query }) => {
    // Unmasked personal data leaving in a file: a step-up first.
    if (seesUnmasked(user)) assertStepUp(user);
    const exported = await auditedVerificationExport(context, query, { unmasked: seesUnmasked(user) });
    return csvFile(exported.stream, `verifications-${fileStamp()}.csv`, {
      "X-Total-Count": String(exported.total),
      "X-Export-Complete": String(exported.complete),
    });
  },
);
