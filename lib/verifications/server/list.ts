import "server-only";

import { config, type Config } from "@/lib/config";
import { AppError } from "@/lib/shared/errors";
import { coreClient, type CoreClient, type UpstreamListQuery } from "@/lib/upstream/core";
import { isUpstreamError } from "@/lib/upstream/errors";
import {
  FILTER_KEYS,
  VERIFICATION_FILTERS,
  type FilterDefinition,
  type VerificationFilters,
} from "@/lib/upstream/model/verification-query";
import { upstreamDateBound } from "@/lib/verifications/dates";
import type { VerificationListResponse } from "@/lib/verifications/types";

/*
 * The list, as both the server page (first render) and GET /api/verifications (every later change) get
 * it: the same function, so the hydrated first page and a refetch are the same shape.
 */

/**
 * What the list remembers between calls. ASSUMPTION (docs/assumptions.md#core-page-param): when the service
 * refuses the page parameter, the dashboard remembers it for a while instead of paying a refused call plus a
 * retry on every list view.
 */
export interface PagingMemory {
  /** Until when (epoch ms) the page parameter is left out; 0: sent. */
  pageParamRefusedUntil: number;
}

export interface VerificationDeps {
  client?: CoreClient;
  cfg?: Config;
  signal?: AbortSignal;
  /** The list's paging memory: the process's own unless given. */
  paging?: PagingMemory;
}

const PAGE_PARAM_REFUSAL_MEMORY_MS = 10 * 60_000;
const processPaging: PagingMemory = { pageParamRefusedUntil: 0 };

function refusesPageParam(error: unknown, pageParam: string): boolean {
  if (!isUpstreamError(error) || error.kind !== "validation") return false;
  if (error.fields?.includes(pageParam)) return true;
  return new RegExp(`\\b${pageParam}\\b`).test(error.upstreamMessage ?? "");
}

/** The filters as the core client takes them: same keys, dates turned into the service's day bounds. */
function toUpstream(filters: VerificationFilters, cfg: Config): UpstreamListQuery {
  const out: Record<string, unknown> = {};
  for (const key of FILTER_KEYS) {
    const value = filters[key];
    const definition: FilterDefinition = VERIFICATION_FILTERS[key];
    // The page is added by the caller below: sent, or left out once the service has refused it.
    if (value === undefined || key === "page") continue;
    out[key] =
      definition.bound && typeof value === "string"
        ? upstreamDateBound(value, definition.bound, cfg.core.dateFilterFormat, cfg.displayTimeZone)
        : value;
  }
  return out as UpstreamListQuery;
}

export async function listVerifications(filters: VerificationFilters, deps: VerificationDeps = {}): Promise<VerificationListResponse> {
  const cfg = deps.cfg ?? config();
  const client = deps.client ?? coreClient();
  if (filters.per_page !== undefined && filters.per_page > cfg.core.maxPerPage) {
    throw new AppError("validation", `Invalid input: per_page: must be at most ${cfg.core.maxPerPage}.`, { fields: ["per_page"] });
  }
  const upstreamFilters = toUpstream(filters, cfg);
  const paging = deps.paging ?? processPaging;

  // The page is always sent (page 1 too) so a service that does not know the parameter is noticed on the
  // first view, not when the analyst first clicks "next".
  if (Date.now() >= paging.pageParamRefusedUntil) {
    try {
      const list = await client.listVerifications({ ...upstreamFilters, page: filters.page ?? 1 }, deps.signal);
      return { ...list, pagingAvailable: true };
    } catch (error) {
      if (!refusesPageParam(error, cfg.core.pageParam)) throw error;
      paging.pageParamRefusedUntil = Date.now() + PAGE_PARAM_REFUSAL_MEMORY_MS;
    }
  }
  const list = await client.listVerifications(upstreamFilters, deps.signal);
  return { ...list, pagingAvailable: false };
}
