import "server-only";

import { createHash } from "node:crypto";

import { LRUCache } from "lru-cache";
import pLimit from "p-limit";

import { config, type Config } from "@/lib/config";
import { combineCounts, emptyStatusCounts, STATUSES, type DayCounts, type VerificationCounts } from "@/lib/overview/figures";
import type { OverviewPeriod } from "@/lib/overview/period";
import { currentCoreApiKey } from "@/lib/upstream/account";
import { coreClient, type CoreClient } from "@/lib/upstream/core";
import { type VerificationFilters } from "@/lib/upstream/model/verification-query";
import { filtersToUrlQuery } from "@/lib/verifications/rules";
import { listVerifications } from "@/lib/verifications/server/list";

/*
 * Verification counts for the overview, from the service's list totals: one call per filter set with
 * per_page=1, reading `pagination.total`. Never pages through the records.
 *
 * The cache holds numbers only, keyed by the filter set and a hash of the core URL and API key (the
 * counts belong to the key's integration and environment; a key change never serves another
 * environment's counts). It is per instance and short-lived: several instances each keep their own
 * copy for at most COUNT_TTL_MS, so a count is never older than that, whichever instance answers.
 * Concurrent views asking for the same count share one call (lru-cache's fetch), and one limiter caps
 * the calls in flight per instance so a burst of views does not flood the service. After a view's first
 * failure its calls still queued are not sent (a service refusing this server's IP would otherwise get
 * every one of them), and the view answers only once nothing of it is in flight.
 */

export const COUNT_TTL_MS = 60_000;
export const COUNT_CONCURRENCY = 6;
const MAX_ENTRIES = 20_000;

interface FetchContext {
  filters: VerificationFilters;
  cfg: Config;
  client: CoreClient;
  view: ViewState;
}

/** One overview view's calls: its first failure, which its queued calls rethrow instead of being sent. */
export interface ViewState {
  failure?: unknown;
}

export interface CountCache {
  count(filters: VerificationFilters, cfg: Config, client: CoreClient, view?: ViewState): Promise<number>;
  clear(): void;
}

export function createCountCache(options: { ttlMs?: number; concurrency?: number } = {}): CountCache {
  const limit = pLimit(options.concurrency ?? COUNT_CONCURRENCY);
  const cache = new LRUCache<string, number, FetchContext>({
    max: MAX_ENTRIES,
    ttl: options.ttlMs ?? COUNT_TTL_MS,
    fetchMethod: (_key, _stale, { context, signal }) =>
      limit(async () => {
        if (context.view.failure !== undefined) throw context.view.failure;
        try {
          const list = await listVerifications({ ...context.filters, per_page: 1 }, { cfg: context.cfg, client: context.client, signal });
          return list.pagination.total;
        } catch (error) {
          // Set here, before the limiter starts the next queued call, not when the caller sees the rejection.
          context.view.failure ??= error;
          throw error;
        }
      }),
  });
  return {
    async count(filters, cfg, client, view = {}) {
      const key = `${environmentKey(cfg)}?${filtersToUrlQuery({ ...filters, per_page: 1 })}`;
      const value = await cache.fetch(key, { context: { filters, cfg, client, view } });
      // fetch() only yields undefined when the fetch was aborted, which nothing here does.
      if (value === undefined) throw new Error("count fetch aborted");
      return value;
    },
    clear: () => cache.clear(),
  };
}

function environmentKey(cfg: Config): string {
  // The key the view speaks with (its connection's, lib/connections), not the start-up variables': two connections'
  // counts never share an entry.
  return createHash("sha256")
    .update(`${cfg.core.url}\n${currentCoreApiKey(cfg)}`)
    .digest("hex")
    .slice(0, 16);
}

/** The instance's count cache: the overview's views and its mirror's checks share it. */
export const sharedCountCache = createCountCache();

export interface CountDeps {
  cfg?: Config;
  client?: CoreClient;
  cache?: CountCache;
}

/**
 * One count per filter set, as one view: they run together (within the limiter), and the first failure is the view's
 * answer. A call shared with another view that failed rejects with that view's failure: the same cause.
 */
export async function countEach(
  filterSets: VerificationFilters[],
  deps: { cfg: Config; client: CoreClient; cache: CountCache },
): Promise<number[]> {
  const view: ViewState = {};
  const settled = await Promise.allSettled(filterSets.map((filters) => deps.cache.count(filters, deps.cfg, deps.client, view)));
  const rejected = settled.find((result) => result.status === "rejected");
  if (rejected) throw view.failure ?? rejected.reason;
  return settled.map((result) => (result as PromiseFulfilledResult<number>).value);
}

/**
 * The period's counts: per status and day (the per-day chart, summed for the period) plus one call for
 * the period's total, which also reveals statuses the dashboard does not know.
 * Calls per uncached view: statuses × days + 1 (5 × 30 + 1 = 151 for the default period). The overview counts from its
 * status mirror instead (./mirror.ts) and comes here only where the mirror cannot serve the period.
 */
export async function verificationCounts(period: OverviewPeriod, deps: CountDeps = {}): Promise<VerificationCounts> {
  const cfg = deps.cfg ?? config();
  const client = deps.client ?? coreClient();
  const cache = deps.cache ?? sharedCountCache;
  const perDay = period.days.flatMap((day) => STATUSES.map((status) => ({ status: [status], from: day, to: day })));
  const counts = await countEach([...perDay, { from: period.from, to: period.to }], { cfg, client, cache });
  const days = period.days.map((day, dayIndex): DayCounts => {
    const byStatus = emptyStatusCounts();
    STATUSES.forEach((status, statusIndex) => (byStatus[status] = counts[dayIndex * STATUSES.length + statusIndex]!));
    return { day, byStatus, total: STATUSES.reduce((sum, status) => sum + byStatus[status], 0) };
  });
  return combineCounts(days, counts.at(-1)!);
}
