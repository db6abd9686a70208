import { useInfiniteQuery } from "@tanstack/react-query";

import { auditFiltersToSearchParams, CPF_SEARCH_HEADER, DEFAULT_PAGE_SIZE, type AuditFilters } from "@/lib/audit-trail/filters";
import type { AuditPage } from "@/lib/audit-trail/types";

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

/** A failed call to GET /api/audit, in the dashboard's error model. */
export class AuditRequestError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly fields: string[] = [],
  ) {
    super(message);
    this.name = "AuditRequestError";
  }
}

async function errorFrom(response: Response): Promise<AuditRequestError> {
  const body = (await response.json().catch(() => undefined)) as { error?: { code?: unknown; message?: unknown; fields?: unknown } } | undefined;
  const error = body?.error;
  return new AuditRequestError(
    response.status,
    typeof error?.code === "string" ? error.code : "internal",
    typeof error?.message === "string" ? error.message : response.statusText,
    Array.isArray(error?.fields) ? error.fields.filter((field): field is string => typeof field === "string") : [],
  );
}

function requestInit(cpf: string | null, signal?: AbortSignal, accept = "application/json"): RequestInit {
  const headers: Record<string, string> = { accept };
  if (cpf) headers[CPF_SEARCH_HEADER] = cpf;
  return { headers, signal, credentials: "same-origin", cache: "no-store" };
}

export function auditApiUrl(filters: AuditFilters, extra: Record<string, string> = {}): string {
  const params = auditFiltersToSearchParams(filters);
  for (const [key, value] of Object.entries(extra)) params.set(key, value);
  const query = params.toString();
  return query ? `/api/audit?${query}` : "/api/audit";
}

export async function fetchAuditPage(filters: AuditFilters, cpf: string | null, cursor: string | null, signal?: AbortSignal): Promise<AuditPage> {
  const extra: Record<string, string> = { limit: String(DEFAULT_PAGE_SIZE) };
  if (cursor) extra.cursor = cursor;
  let response: Response;
  try {
    response = await fetch(auditApiUrl(filters, extra), requestInit(cpf, signal));
  } catch (error) {
    if (signal?.aborted) throw error;
    throw new AuditRequestError(0, "network", "The dashboard could not be reached.");
  }
  if (!response.ok) throw await errorFrom(response);
  return (await response.json()) as AuditPage;
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
  const response = await fetch(auditApiUrl(filters, { format: "csv" }), requestInit(cpf, signal, "text/csv"));
  if (!response.ok || !response.body) throw await errorFrom(response);
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
