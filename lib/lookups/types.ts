// Shared (no server imports): what POST /api/lookups/cpf answers.

import type { CpfHistoryRecord, FederalRevenueRecord } from "@/lib/upstream/model/partners";

/** POST /api/lookups/cpf */
export type CpfLookupResponse = { source: "receita"; record: FederalRevenueRecord } | { source: "history"; record: CpfHistoryRecord };
