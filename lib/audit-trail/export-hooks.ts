import type { AuditFilters } from "@/lib/audit-trail/filters";
import { useCsvExport } from "@/lib/shared/api-client/csv-export";

import { downloadAuditCsv } from "./hooks";

// The CSV export's hook (browser only; apart from ./audit.ts, whose key factory the server page imports).

/** The export of the filters on screen (and the CPF searched), with live progress and a way to stop it. */
export function useAuditExport() {
  return useCsvExport(({ filters, cpf }: { filters: AuditFilters; cpf: string | null }, options) =>
    downloadAuditCsv(filters, cpf, options),
  );
}
