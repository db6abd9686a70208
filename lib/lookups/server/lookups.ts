import "server-only";

import { audited, type AuditDetails, type RequestContext } from "@/lib/audit-trail/server";
import { hasPermission, type PermissionHolder } from "@/lib/auth/permissions";
import type { Database } from "@/lib/db/client";
import { consumeQuota } from "@/lib/db/quotas";
import type { CpfLookupResponse } from "@/lib/lookups/types";
import type { LookupSource } from "@/lib/lookups/validation";
import { maskCpfHistoryRecord, maskFederalRevenueRecord } from "@/lib/upstream/model/masking";
import type { CpfHistoryRecord, FederalRevenueRecord } from "@/lib/upstream/model/partners";
import type { PartnersClient } from "@/lib/upstream/partners";

/*
 * Manual CPF lookups: the member's lookup quota per minute and per day (lib/db/quotas.ts: database
 * counters, so it holds across instances), then the partners call, then the audit event with the purpose and the outcome. The CPF is
 * given to the audit trail raw and stored there masked plus a keyed hash (lib/audit-trail/server/record.ts).
 */

export interface LookupLimits {
  /** The lookup quota's limits (config().quotas.lookup). */
  limits: { minute?: number; day?: number };
  timeZone: string;
}

export type LookupResult = { source: "receita"; record: FederalRevenueRecord } | { source: "history"; record: CpfHistoryRecord };

/**
 * Counts the lookup against the user's limits, runs it and records it (with the purpose) before
 * answering; an unrecorded lookup is refused. A lookup refused by the limit is recorded as denied.
 */
export async function runCpfLookup(
  db: Database,
  client: PartnersClient,
  context: RequestContext,
  { cpf, source, purpose, limits, timeZone }: { cpf: string; source: LookupSource; purpose: string } & LookupLimits,
): Promise<LookupResult> {
  return audited(
    context,
    {
      action: source === "receita" ? "lookup.cpf_receita" : "lookup.cpf_history",
      target: { type: "cpf", cpf },
      purpose,
      details: { source },
      detailsOf: (result) => {
        const flags: AuditDetails = { deceased: result.record.deceased === true };
        if (result.source === "history") flags.pep = result.record.pep === true;
        return flags;
      },
    },
    async () => {
      // The member's quota (lib/db/quotas.ts): refused before the service is called, recorded as denied.
      await consumeQuota(db, "lookup", context.actor?.id ?? "unknown", { limits, timeZone });
      return source === "receita"
        ? { source, record: await client.federalRevenueCpf(cpf) }
        : { source, record: await client.cpfHistory(cpf) };
    },
  );
}

/**
 * A lookup's record as this member may see it: whole with `personal_data.unmasked`, else masked by the one masking
 * function (lib/upstream/model/masking.ts), like every other answer carrying the person.
 */
export function lookupAsSeenBy(viewer: PermissionHolder, result: LookupResult): CpfLookupResponse {
  if (hasPermission(viewer, "personal_data.unmasked")) return result;
  return result.source === "receita"
    ? { source: result.source, record: maskFederalRevenueRecord(result.record), maskedBy: "dashboard" }
    : { source: result.source, record: maskCpfHistoryRecord(result.record), maskedBy: "dashboard" };
}
