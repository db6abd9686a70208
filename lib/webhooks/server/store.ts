import "server-only";

import { and, asc, desc, eq, gt } from "drizzle-orm";

import { recordEvent } from "@/lib/audit-trail/server";
import type { Database } from "@/lib/db/client";
import { verificationEvents, webhookDeliveries, type VerificationEventRow, type WebhookDeliveryState } from "@/lib/webhooks/server/tables";
import type { ChangeFeed, VerificationEventItem } from "@/lib/webhooks/types";

import { auditableDetail, webhookTarget } from "./audit";
import { bodyFingerprint, type DeliveryKeySource, type ParsedDelivery } from "./parse";

/*
 * The webhook store: raw deliveries (deduplicated by delivery id) and the verification events they
 * carry (one row per distinct upstream event). Everything shared lives here, in the database, so any
 * number of instances receive and process correctly together.
 */

export interface StoredDelivery {
  /** False when this delivery key was already stored: a redelivery, answered 200 with no change. */
  stored: boolean;
}

/** What a delivery row holds of its body: the raw body to process, or for an unreadable one only its size and digest. */
function bodyColumns(
  parsed: ParsedDelivery,
  rawBody: string,
  ignored: boolean,
): { body: string; state: WebhookDeliveryState; bodyBytes?: number; bodySha256?: string; lastError?: string } {
  if (parsed.kind === "malformed") {
    const fingerprint = bodyFingerprint(rawBody);
    return { body: "", bodyBytes: fingerprint.bytes, bodySha256: fingerprint.sha256, state: "unparseable", lastError: parsed.problem };
  }
  return { body: rawBody, state: ignored ? "ignored" : "pending" };
}

/**
 * Stores a delivery and its audit record in one transaction, before the receiver answers 2xx. One
 * `INSERT … ON CONFLICT DO NOTHING` decides "new or seen", so two simultaneous redeliveries store one row.
 * An ignored event (a kind the dashboard does not use) and an unparseable body are stored already settled, for the
 * dedupe and the trail: neither is ever processed, so an unreadable body cannot loop through retries.
 */
export async function storeDelivery(
  db: Database,
  input: { deliveryId: string; keySource?: DeliveryKeySource; rawBody: string; parsed: ParsedDelivery; ip: string | null },
): Promise<StoredDelivery> {
  const { parsed } = input;
  const event = parsed.kind === "verification" ? parsed.parsed.event : (parsed.event ?? UNREADABLE_EVENT);
  const publicId = parsed.kind === "verification" ? parsed.parsed.publicId : parsed.kind === "ignored" ? parsed.publicId : null;
  const tenantPublicId =
    parsed.kind === "verification" ? parsed.parsed.tenantPublicId : parsed.kind === "ignored" ? parsed.tenantPublicId : null;
  const ignored = parsed.kind === "ignored";
  const columns = bodyColumns(parsed, input.rawBody, ignored);
  return db.transaction(async (tx) => {
    const [row] = await tx
      .insert(webhookDeliveries)
      .values({
        deliveryId: input.deliveryId,
        keySource: input.keySource ?? "header",
        event,
        publicId,
        tenantPublicId,
        ...columns,
        processedAt: columns.state === "pending" ? null : new Date(),
      })
      .onConflictDoNothing({ target: webhookDeliveries.deliveryId })
      .returning({ id: webhookDeliveries.id });
    if (!row) return { stored: false };
    await recordEvent(
      {
        actor: null,
        action: "webhook.receive",
        target: webhookTarget("verification", publicId) ?? webhookTarget("webhook_delivery", input.deliveryId),
        // Received, but not readable: a failure an admin reading the trail should see.
        outcome: parsed.kind === "malformed" ? "failure" : "success",
        ip: input.ip,
        details: {
          event,
          delivery: auditableDetail(input.deliveryId),
          deliveryKey: input.keySource ?? "header",
          status: parsed.kind === "verification" ? parsed.parsed.status : null,
          handling: parsed.kind === "malformed" ? "unparseable" : ignored ? "ignored" : "queued",
          ...(parsed.kind === "malformed"
            ? { problem: auditableDetail(parsed.problem), bytes: columns.bodyBytes ?? null, sha256: columns.bodySha256 ?? null }
            : {}),
        },
      },
      tx,
    );
    return { stored: true };
  });
}

/** The `event` of a delivery whose body names none that can be read. */
const UNREADABLE_EVENT = "unreadable";

function toItem(
  row: Pick<
    VerificationEventRow,
    "id" | "publicId" | "event" | "status" | "occurredAt" | "recordedAt" | "identityScore" | "fraudScore" | "decidedAt"
  >,
): VerificationEventItem {
  return {
    id: row.id,
    publicId: row.publicId,
    event: row.event,
    status: row.status,
    occurredAt: row.occurredAt.toISOString(),
    recordedAt: row.recordedAt.toISOString(),
    identityScore: row.identityScore,
    fraudScore: row.fraudScore,
    decidedAt: row.decidedAt?.toISOString() ?? null,
  };
}

const itemColumns = {
  id: verificationEvents.id,
  publicId: verificationEvents.publicId,
  event: verificationEvents.event,
  status: verificationEvents.status,
  occurredAt: verificationEvents.occurredAt,
  recordedAt: verificationEvents.recordedAt,
  identityScore: verificationEvents.identityScore,
  fraudScore: verificationEvents.fraudScore,
  decidedAt: verificationEvents.decidedAt,
};

/**
 * A verification's timeline under one connection (the events filed under it: lib/webhooks/server/route-connection.ts),
 * oldest first (by when the service says it happened, then by arrival).
 */
export async function listVerificationEvents(
  db: Database,
  publicId: string,
  connectionId: string,
  limit = 200,
): Promise<VerificationEventItem[]> {
  const rows = await db
    .select(itemColumns)
    .from(verificationEvents)
    .where(and(eq(verificationEvents.publicId, publicId), eq(verificationEvents.connectionId, connectionId)))
    .orderBy(asc(verificationEvents.occurredAt), asc(verificationEvents.id))
    .limit(limit);
  return rows.map(toItem);
}

/**
 * One connection's events recorded after `after` (the feed the open pages poll). Without `after`, only the current
 * cursor: a page starts listening from now. The lookup is an index range on (connection, id).
 */
export async function listChangesSince(db: Database, connectionId: string, after: number | undefined, limit = 100): Promise<ChangeFeed> {
  if (after === undefined) {
    const [head] = await db.select({ id: verificationEvents.id }).from(verificationEvents).orderBy(desc(verificationEvents.id)).limit(1);
    return { cursor: head?.id ?? 0, changes: [], truncated: false };
  }
  const rows = await db
    .select(itemColumns)
    .from(verificationEvents)
    .where(and(eq(verificationEvents.connectionId, connectionId), gt(verificationEvents.id, after)))
    .orderBy(asc(verificationEvents.id))
    .limit(limit + 1);
  const page = rows.slice(0, limit);
  return { cursor: page.at(-1)?.id ?? after, changes: page.map(toItem), truncated: rows.length > limit };
}
