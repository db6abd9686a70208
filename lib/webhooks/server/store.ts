import "server-only";

import { asc, desc, eq, gt } from "drizzle-orm";

import { recordEvent } from "@/lib/audit-trail/server";
import type { Database } from "@/lib/db/client";
import { verificationEvents, webhookDeliveries, type VerificationEventRow } from "@/lib/webhooks/server/tables";
import type { ChangeFeed, VerificationEventItem } from "@/lib/webhooks/types";

import { auditableDetail, webhookTarget } from "./audit";
import type { ParsedDelivery } from "./parse";

/*
 * The webhook store: raw deliveries (deduplicated by delivery id) and the verification events they
 * carry (one row per distinct upstream event). Everything shared lives here, in the database, so any
 * number of instances receive and process correctly together.
 */

export interface StoredDelivery {
  /** False when this delivery id was already stored: a redelivery, answered 200 with no change. */
  stored: boolean;
}

/**
 * Stores a delivery and its audit record in one transaction, before the receiver answers 2xx. One
 * `INSERT … ON CONFLICT DO NOTHING` decides "new or seen", so two simultaneous redeliveries store one row.
 * An ignored event (a kind the dashboard does not use) is stored already settled, for the dedupe and the trail.
 */
export async function storeDelivery(
  db: Database,
  input: { deliveryId: string; rawBody: string; parsed: Exclude<ParsedDelivery, { kind: "malformed" }>; ip: string | null },
): Promise<StoredDelivery> {
  const { parsed } = input;
  const event = parsed.kind === "verification" ? parsed.parsed.event : parsed.event;
  const publicId = parsed.kind === "verification" ? parsed.parsed.publicId : parsed.publicId;
  const ignored = parsed.kind === "ignored";
  return db.transaction(async (tx) => {
    const [row] = await tx
      .insert(webhookDeliveries)
      .values({
        deliveryId: input.deliveryId,
        event,
        publicId,
        body: input.rawBody,
        state: ignored ? "ignored" : "pending",
        processedAt: ignored ? new Date() : null,
      })
      .onConflictDoNothing({ target: webhookDeliveries.deliveryId })
      .returning({ id: webhookDeliveries.id });
    if (!row) return { stored: false };
    await recordEvent(
      {
        actor: null,
        action: "webhook.receive",
        target: webhookTarget("verification", publicId) ?? webhookTarget("webhook_delivery", input.deliveryId),
        outcome: "success",
        ip: input.ip,
        details: {
          event,
          delivery: auditableDetail(input.deliveryId),
          status: parsed.kind === "verification" ? parsed.parsed.status : null,
          handling: ignored ? "ignored" : "queued",
        },
      },
      tx,
    );
    return { stored: true };
  });
}

function toItem(
  row: Pick<VerificationEventRow, "id" | "publicId" | "event" | "status" | "occurredAt" | "recordedAt">,
): VerificationEventItem {
  return {
    id: row.id,
    publicId: row.publicId,
    event: row.event,
    status: row.status,
    occurredAt: row.occurredAt.toISOString(),
    recordedAt: row.recordedAt.toISOString(),
  };
}

const itemColumns = {
  id: verificationEvents.id,
  publicId: verificationEvents.publicId,
  event: verificationEvents.event,
  status: verificationEvents.status,
  occurredAt: verificationEvents.occurredAt,
  recordedAt: verificationEvents.recordedAt,
};

/** A verification's timeline, oldest first (by when the service says it happened, then by arrival). */
export async function listVerificationEvents(db: Database, publicId: string, limit = 200): Promise<VerificationEventItem[]> {
  const rows = await db
    .select(itemColumns)
    .from(verificationEvents)
    .where(eq(verificationEvents.publicId, publicId))
    .orderBy(asc(verificationEvents.occurredAt), asc(verificationEvents.id))
    .limit(limit);
  return rows.map(toItem);
}

/**
 * Events recorded after `after` (the feed the open pages poll). Without `after`, only the current cursor:
 * a page starts listening from now. The lookup is an index range on the primary key.
 */
export async function listChangesSince(db: Database, after: number | undefined, limit = 100): Promise<ChangeFeed> {
  if (after === undefined) {
    const [head] = await db.select({ id: verificationEvents.id }).from(verificationEvents).orderBy(desc(verificationEvents.id)).limit(1);
    return { cursor: head?.id ?? 0, changes: [], truncated: false };
  }
  const rows = await db
    .select(itemColumns)
    .from(verificationEvents)
    .where(gt(verificationEvents.id, after))
    .orderBy(asc(verificationEvents.id))
    .limit(limit + 1);
  const page = rows.slice(0, limit);
  return { cursor: page.at(-1)?.id ?? after, changes: page.map(toItem), truncated: rows.length > limit };
}
