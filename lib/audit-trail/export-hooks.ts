import type { AuditFilters } from "@/lib/audit-trail/filters";
import { downloadCsv, type CsvDownload, type ExportProgress } from "@/lib/shared/api-client/csv-download";
import { useCsvExport } from "@/lib/shared/api-client/csv-export";

import { auditApiUrl, cpfHeader } from "./api";

// The CSV export (browser only; loaded with its button, after the page: components/audit-trail/audit-export.tsx).

/** Downloads the audit log's CSV export with live progress (see downloadCsv); a searched CPF goes in its header. */
export function downloadAuditCsv(
  filters: AuditFilters,
  cpf: string | null,
  options: { signal?: AbortSignal; onProgress?: (progress: ExportProgress) => void } = {},
): Promise<CsvDownload> {
  return downloadCsv(auditApiUrl(filters, { format: "csv" }), { ...options, headers: cpfHeader(cpf), fallbackName: "audit.csv" });
}

/** The export of the filters on screen (and the CPF searched), with live progress and a way to stop it. */
export function useAuditExport() {
  return useCsvExport(({ filters, cpf }: { filters: AuditFilters; cpf: string | null }, options) =>
    downloadAuditCsv(filters, cpf, options),
  );
}
