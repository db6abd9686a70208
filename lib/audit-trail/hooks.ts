import { infiniteQueryOptions, useInfiniteQuery } from "@tanstack/react-query";

import { auditFiltersToSearchParams, CPF_SEARCH_HEADER, DEFAULT_PAGE_SIZE, type AuditFilters } from "@/lib/audit-trail/filters";
import type { AuditPage } from "@/lib/audit-trail/types";
import { apiRequest } from "@/lib/shared/api-client/api-request";
import { downloadCsv, type CsvDownload, type ExportProgress } from "@/lib/shared/api-client/csv-download";

/*
 * The audit log's data layer in the browser: key factory, fetchers, hooks. The server page prefetches the
 * first page under the same key, so the hydrated view is the cache entry `useAuditEvents` reads.
 *
 * A searched CPF is sent in the `X-Search-Cpf` header, never in a URL. It is part of the query key (the
 * cache is in memory only, never persisted: app/providers.tsx).
 *
 * No React import here: the server page imports the key factory. The export's hook, which needs state,
 * is in ./audit-export.ts.
 */

export const auditKeys = {
  all: ["audit"] as const,
  lists: () => [...auditKeys.all, "list"] as const,
  list: (filters: AuditFilters, cpf: string | null) => [...auditKeys.lists(), filters, cpf] as const,
};

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

/** The log's query (the hook's options, also read by tests), newest first. */
export function auditEventsQuery(filters: AuditFilters, cpf: string | null) {
  return infiniteQueryOptions({
    queryKey: auditKeys.list(filters, cpf),
    queryFn: ({ pageParam, signal }) => fetchAuditPage(filters, cpf, pageParam, signal),
    initialPageParam: null as string | null,
    getNextPageParam: (last: AuditPage) => last.nextCursor,
  });
}

/** The log, newest first; `fetchNextPage` loads the next older page after the last one shown. */
export function useAuditEvents(filters: AuditFilters, cpf: string | null, { enabled = true }: { enabled?: boolean } = {}) {
  return useInfiniteQuery({ ...auditEventsQuery(filters, cpf), enabled });
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
