import { auditFiltersToSearchParams, CPF_SEARCH_HEADER, DEFAULT_PAGE_SIZE, type AuditFilters } from "@/lib/audit-trail/filters";
import type { AuditPage } from "@/lib/audit-trail/types";
import { apiRequest } from "@/lib/shared/api-client/api-request";

/*
 * The audit log's requests from the browser: a page of events after a cursor (the export's is ./export-hooks.ts,
 * loaded with its button). No cache: the
 * first page is drawn by the server (app/(dashboard)/admin/audit/page.tsx), older pages and a search by CPF are
 * kept by the log's pager (components/audit-trail/audit-pages.tsx) for as long as the view is on screen.
 *
 * A searched CPF is sent in the `X-Search-Cpf` header, never in a URL.
 */

export function cpfHeader(cpf: string | null): Record<string, string> {
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
