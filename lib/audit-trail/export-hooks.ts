import type { AuditFilters } from "@/lib/audit-trail/filters";
import { useCsvExport } from "@/lib/shared/api-client/csv-export";

import { downloadAuditCsv } from "./api";

// The CSV export's hook (browser only; beside ./api.ts).

/** The export of the filters on screen (and the CPF searched), with live progress and a way to stop it. */
export function useAuditExport() {
  return useCsvExport(({ filters, cpf }: { filters: AuditFilters; cpf: string | null }, options) =>
    downloadAuditCsv(filters, cpf, options),
  );
}
