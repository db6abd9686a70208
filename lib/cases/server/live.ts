import "server-only";

import type { Database } from "@/lib/db/client";
import { publishLive } from "@/lib/db/live";

/*
 * What open pages learn of a case (GET /api/events/stream, lib/db/live.ts): the topic and the verification's
 * public id, nothing more. Called inside the transaction that makes the change, so the event is announced
 * when (and only if) it commits.
 */

export type CaseTopic = "case.opened" | "case.assigned" | "case.unassigned" | "case.outcome" | "case.closed";

export async function publishCaseChange(db: Database, topic: CaseTopic, publicIds: string | readonly string[]): Promise<void> {
  for (const publicId of typeof publicIds === "string" ? [publicIds] : publicIds) await publishLive(db, { topic, payload: { publicId } });
}
