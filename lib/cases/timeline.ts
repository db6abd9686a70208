import "server-only";

import type { Database } from "@/lib/db/client";

import type { UpstreamEventEntry } from "./types";

/*
 * SEAM (shared contract 3): the upstream events of a verification come from the webhooks store
 * (`listVerificationEvents(db, publicId)` in `@/lib/webhooks/store`, owned by the events work). Until that
 * branch is merged this answers an empty list; the timeline already merges whatever it returns.
 */
export async function upstreamEventsOf(_db: Database, _publicId: string): Promise<UpstreamEventEntry[]> {
  return [];
}
