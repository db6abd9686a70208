import { useInfiniteQuery } from "@tanstack/react-query";

import { auditFiltersToSearchParams, CPF_SEARCH_HEADER, DEFAULT_PAGE_SIZE, type AuditFilters } from "@/lib/audit-trail/filters";
import type { AuditPage } from "@/lib/audit-trail/types";

import { apiRequest, errorFromResponse, networkError } from "./api-request";

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

/** The log, newest first; `fetchNextPage` loads the next older page after the last one shown. */
export function useAuditEvents(filters: AuditFilters, cpf: string | null, { enabled = true }: { enabled?: boolean } = {}) {
  return useInfiniteQuery({
    queryKey: auditKeys.list(filters, cpf),
    queryFn: ({ pageParam, signal }) => fetchAuditPage(filters, cpf, pageParam, signal),
    initialPageParam: null as string | null,
    getNextPageParam: (last) => last.nextCursor,
    enabled,
  });
}

export interface ExportProgress {
  bytes: number;
  rows: number;
}

/**
 * Downloads the CSV export, reporting bytes and rows as they arrive (rows are counted by CRLF, which the
 * server writes only between records). Resolves with the file as a Blob.
 */
export async function downloadAuditCsv(
  filters: AuditFilters,
  cpf: string | null,
  { signal, onProgress }: { signal?: AbortSignal; onProgress?: (progress: ExportProgress) => void } = {},
): Promise<{ blob: Blob; filename: string; rows: number; bytes: number }> {
  let response: Response;
  try {
    response = await fetch(auditApiUrl(filters, { format: "csv" }), {
      headers: { accept: "text/csv", ...cpfHeader(cpf) },
      signal,
      credentials: "same-origin",
      cache: "no-store",
    });
  } catch (error) {
    if (signal?.aborted) throw error;
    throw networkError();
  }
  if (!response.ok || !response.body) throw await errorFromResponse(response);
  const filename = /filename="([^"]+)"/.exec(response.headers.get("content-disposition") ?? "")?.[1] ?? "audit.csv";
  const reader = response.body.getReader();
  const chunks: Uint8Array<ArrayBuffer>[] = [];
  let bytes = 0;
  let lineBreaks = 0;
  let previousByte = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    chunks.push(value);
    bytes += value.byteLength;
    for (let index = 0; index < value.length; index += 1) {
      const byte = value[index]!;
      if (byte === 0x0a && previousByte === 0x0d) lineBreaks += 1;
      previousByte = byte;
    }
    // The first line is the header.
    onProgress?.({ bytes, rows: Math.max(0, lineBreaks - 1) });
  }
  return { blob: new Blob(chunks, { type: "text/csv;charset=utf-8" }), filename, rows: Math.max(0, lineBreaks - 1), bytes };
}
