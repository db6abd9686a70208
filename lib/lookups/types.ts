// Shared (no server imports): what POST /api/lookups/cpf answers.

import type { CpfHistoryRecord, FederalRevenueRecord } from "@/lib/upstream/model/partners";

/**
 * POST /api/lookups/cpf. `maskedBy: "dashboard"`: the member lacks `personal_data.unmasked`, so the record's
 * CPF, names, birth date and contacts are masked and its unknown fields dropped (lib/upstream/model/masking.ts).
 */
export type CpfLookupResponse = ({ source: "receita"; record: FederalRevenueRecord } | { source: "history"; record: CpfHistoryRecord }) & {
  maskedBy?: "dashboard";
};

/**
 * POST /api/verifications/:publicId/record: the person's records looked up for a verification's document, one per
 * source asked for, each as POST /api/lookups/cpf would answer it.
 */
export interface RecordLookupResponse {
  results: CpfLookupResponse[];
}
