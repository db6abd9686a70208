import "server-only";

import { LRUCache } from "lru-cache";

import type { ChangeFeed } from "@/lib/db/change-feed";
import type { DatabaseHandle } from "@/lib/db/client";
import { perDatabase } from "@/lib/db/per-database";
import type { ListEnrichment } from "@/lib/verifications/types";

import { enrichmentOf } from "./enrich";

/*
 * The list's enrichment (./enrich.ts) without a database statement per view. Each instance keeps what it read
 * per verification, an absence included (most rows of a list have no ref_id and no open case). Every change
 * that alters it (an index entry's ref_id, a case opened, assigned, closed or deleted, a member renamed) is
 * announced by database triggers on `kyc_enrichment_change` when its transaction commits (migration
 * 0014_list_enrichment_notify), whichever instance, job or script made it, and every instance LISTENs to it.
 *
 * As with the session cache (lib/auth/server/session-cache.ts): entries are trusted only while the feed is
 * connected (while it is down every view reads the database, and the cache starts empty when it is back), and
 * a read that raced an invalidation does not store what it read (each invalidation bumps an epoch).
 *
 * Measured (docs/benchmarks.md, `load`): the enrichment statement was about half of the list's CPU over a
 * bare proxy on the embedded database.
 */

export const ENRICHMENT_CHANGE_CHANNEL = "kyc_enrichment_change";
const MAX_ENTRIES = 50_000;

interface Entry {
  value: ListEnrichment | null;
}

export class EnrichmentCache {
  private readonly entries = new LRUCache<string, Entry>({ max: MAX_ENTRIES });
  private epoch = 0;
  private readonly feed: ChangeFeed;

  constructor(private readonly handle: DatabaseHandle) {
    this.feed = handle.changeFeed(ENRICHMENT_CHANGE_CHANNEL, {
      onMessage: (payload) => this.onChange(payload),
      onReset: () => this.forgetAll(),
    });
  }

  /** ref_id, and the open case's age and owner, of each of these verifications that has any. */
  readonly read = async (publicIds: string[]): Promise<Record<string, ListEnrichment>> => {
    const enrichment: Record<string, ListEnrichment> = {};
    const missing: string[] = [];
    for (const publicId of publicIds) {
      const entry = this.feed.connected ? this.entries.get(publicId) : undefined;
      if (!entry) missing.push(publicId);
      else if (entry.value) enrichment[publicId] = entry.value;
    }
    if (missing.length === 0) return enrichment;
    const epoch = this.epoch;
    const read = await enrichmentOf(this.handle.db, missing);
    const store = this.feed.connected && epoch === this.epoch;
    for (const publicId of missing) {
      const value = read[publicId] ?? null;
      if (value) enrichment[publicId] = value;
      if (store) this.entries.set(publicId, { value });
    }
    return enrichment;
  };

  forgetAll(): void {
    this.epoch += 1;
    this.entries.clear();
  }

  private onChange(payload: string): void {
    this.epoch += 1;
    if (payload.startsWith("v:")) this.entries.delete(payload.slice(2));
    else this.entries.clear();
  }
}

export const enrichmentCacheFor: (handle: DatabaseHandle) => EnrichmentCache = perDatabase((handle) => new EnrichmentCache(handle));
