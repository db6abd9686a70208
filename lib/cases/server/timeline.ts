import "server-only";

import type { UpstreamEventEntry } from "@/lib/cases/types";
import type { Database } from "@/lib/db/client";
import { listVerificationEvents } from "@/lib/webhooks/server/store";

/** The upstream events of a verification (shared contract 3) filed under its case's connection, for the case timeline. */
export async function upstreamEventsOf(db: Database, publicId: string, connectionId: string): Promise<UpstreamEventEntry[]> {
  const events = await listVerificationEvents(db, publicId, connectionId);
  return events.map((event) => ({ at: event.occurredAt, event: event.event, status: event.status }));
}
