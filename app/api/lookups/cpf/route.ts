import { ApiError, toErrorResponse } from "@/lib/api/errors";
import { requireUser } from "@/lib/auth/require-role";
import { config } from "@/lib/config";
import { getDb } from "@/lib/db/client";
import { isAuditablePurpose } from "@/lib/partners-ops/audit";
import { auditContext, noStoreJson, readJson } from "@/lib/partners-ops/http";
import { consumeLookup, LookupLimitError, recordLimitedLookup, runCpfLookup } from "@/lib/partners-ops/lookups";
import type { CpfLookupResponse } from "@/lib/partners-ops/types";
import { partnersClient } from "@/lib/upstream/partners";
import { cpfLookupSchema } from "@/lib/validations/lookups";

// POST /api/lookups/cpf – one manual CPF lookup (federal revenue record or enrichment), limited per user and audited.
export async function POST(request: Request) {
  try {
    const user = await requireUser(request);
    // The CPF only ever travels in this body: never in a dashboard URL, where logs and history would keep it.
    const input = cpfLookupSchema.parse(await readJson(request));
    if (!isAuditablePurpose(input.purpose)) {
      throw new ApiError("validation", "Invalid input: purpose: describe the reason in words, without a CPF, a web address or a key.", {
        fields: ["purpose"],
      });
    }
    const context = auditContext(user, request);
    const lookup = { ...context, cpf: input.cpf, source: input.source, purpose: input.purpose };
    const { lookupLimits, displayTimeZone } = config();
    try {
      await consumeLookup(await getDb(), user.id, lookupLimits, displayTimeZone);
    } catch (error) {
      if (!(error instanceof LookupLimitError)) throw error;
      await recordLimitedLookup(lookup, error.scope);
      const response = toErrorResponse(error);
      response.headers.set("X-RateLimit-Scope", error.scope);
      response.headers.set("X-RateLimit-Limit", String(error.limit));
      return response;
    }
    const result = await runCpfLookup(partnersClient(), lookup);
    return noStoreJson<CpfLookupResponse>(result);
  } catch (error) {
    return toErrorResponse(error);
  }
}
