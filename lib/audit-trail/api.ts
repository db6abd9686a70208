import { auditFiltersToSearchParams, CPF_SEARCH_HEADER, DEFAULT_PAGE_SIZE, type AuditFilters } from "@/lib/audit-trail/filters";
import type { AuditPage } from "@/lib/audit-trail/types";
import { apiRequest } from "@/lib/shared/api-client/api-request";
import { downloadCsv, type CsvDownload, type ExportProgress } from "@/lib/shared/api-client/csv-download";

/*
 * The audit log's requests from the browser: a page of events after a cursor, and the CSV export. No cache: the
 * first page is drawn by the server (app/(dashboard)/admin/audit/page.tsx), older pages and a search by CPF are
 * kept by the log's pager (components/audit-trail/audit-pages.tsx) for as long as the view is on screen.
 *
 * A searched CPF is sent in the `X-Search-Cpf` header, never in a URL.
 */

function cpfHeader(cpf: string | null): Record<string, string> {
  return cpf ? { [CPF_SEARCH_HEADER]: cpf } : {};
}

export function auditApiUrl(filters: AuditFilters, extra: Record<string, string> = {}): string {
  const params = auditFiltersToSearchParams(filters);
  for (const [key, value] of Object.entries(extra)) params.set(key, value);
  const query = params.toString();
  return query ? `/api/audit?${query}` : "/api/audit";
}

export async function fetchAuditPage(
  filters: AuditFilters,
  cpf: string | null,
  cursor: string | null,
  signal?: AbortSignal,
): Promise<AuditPage> {
  const extra: Record<string, string> = { limit: String(DEFAULT_PAGE_SIZE) };
  if (cursor) extra.cursor = cursor;
  return apiRequest<AuditPage>(auditApiUrl(filters, extra), { signal, headers: cpfHeader(cpf) });
}

export type { ExportProgress } from "@/lib/shared/api-client/csv-download";

/** Downloads the audit log's CSV export with live progress (see downloadCsv). */
export function downloadAuditCsv(
  filters: AuditFilters,
  cpf: string | null,
  options: { signal?: AbortSignal; onProgress?: (progress: ExportProgress) => void } = {},
): Promise<CsvDownload> {
  return downloadCsv(auditApiUrl(filters, { format: "csv" }), { ...options, headers: cpfHeader(cpf), fallbackName: "audit.csv" });
}
