import "server-only";

import { inArray } from "drizzle-orm";

import { cases } from "@/lib/cases/server/tables";
import type { Database } from "@/lib/db/client";
import { publishLive } from "@/lib/db/live";

/*
 * What open pages learn of a case (GET /api/events/stream, lib/db/live.ts): the topic and the verification's
 * public id, nothing more, for the streams of the case's own connection (read from the case, not from the work's
 * binding: a job escalating cases of every connection runs under none). Called inside the transaction that makes the
 * change, so the event is announced when (and only if) it commits.
 */

export type CaseTopic = "case.opened" | "case.assigned" | "case.unassigned" | "case.outcome" | "case.closed";

export async function publishCaseChange(db: Database, topic: CaseTopic, publicIds: string | readonly string[]): Promise<void> {
  const ids = typeof publicIds === "string" ? [publicIds] : [...publicIds];
  if (ids.length === 0) return;
  const rows = await db
    .select({ publicId: cases.publicId, connectionId: cases.connectionId })
    .from(cases)
    .where(inArray(cases.publicId, ids));
  const connectionOf = new Map(rows.map((row) => [row.publicId, row.connectionId]));
  for (const publicId of ids) await publishLive(db, { topic, payload: { publicId }, connectionId: connectionOf.get(publicId) ?? null });
}
