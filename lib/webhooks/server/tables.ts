import { sql } from "drizzle-orm";
import { bigserial, check, doublePrecision, index, integer, pgTable, text, timestamp } from "drizzle-orm/pg-core";

// Tables of this feature (drizzle-kit reads every lib/*/server/tables.ts: drizzle.config.ts). No `server-only`
// and no `@/` alias here: drizzle-kit loads schema files outside Next.

/**
 * `unparseable`: signed, so kept, but its body is not an event the dashboard can read; settled on arrival (never
 * processed, never retried) and shown on the audit trail (`webhook.receive`, handling `unparseable`).
 */
export const WEBHOOK_DELIVERY_STATES = ["pending", "processed", "ignored", "failed", "unparseable"] as const;

/** How a delivery's key was found: the delivery id header, else the event's identity, else the body's digest (parse.ts). */
export const DELIVERY_KEY_SOURCES = ["header", "event", "body"] as const;

export type WebhookDeliveryState = (typeof WEBHOOK_DELIVERY_STATES)[number];

/*
 * The service's webhook deliveries, stored before the receiver answers 2xx (lib/webhooks/server/store.ts). The
 * unique delivery id makes a redelivery a no-op under concurrency (one INSERT … ON CONFLICT, never a
 * SELECT first); without the delivery id header, `delivery_id` holds the key found in its place (`key_source`).
 * `body` is the signed raw body, kept so the processor works out of the request; an unparseable body is not kept
 * (it cannot be cut to what processing reads, and may hold anything): only its size and digest. The signature itself
 * is not kept. Processors on every instance claim pending rows with FOR UPDATE SKIP LOCKED.
 */
export const webhookDeliveries = pgTable(
  "webhook_deliveries",
  {
    id: bigserial("id", { mode: "number" }).primaryKey(),
    deliveryId: text("delivery_id").notNull().unique(),
    event: text("event").notNull(),
    publicId: text("public_id"),
    body: text("body").notNull(),
    state: text("state", { enum: WEBHOOK_DELIVERY_STATES }).notNull().default("pending"),
    attempts: integer("attempts").notNull().default(0),
    nextAttemptAt: timestamp("next_attempt_at", { withTimezone: true }).notNull().defaultNow(),
    // A short reason (an error's name and message, redacted; what makes a body unparseable), never the body.
    lastError: text("last_error"),
    keySource: text("key_source", { enum: DELIVERY_KEY_SOURCES }).notNull().default("header"),
    // An unparseable body's size and SHA-256 (hex): enough to match it with the sender's records, nothing of its content.
    bodyBytes: integer("body_bytes"),
    bodySha256: text("body_sha256"),
    // The envelope's account id, kept to route the delivery to its connection once connections exist.
    tenantPublicId: text("tenant_public_id"),
    receivedAt: timestamp("received_at", { withTimezone: true }).notNull().defaultNow(),
    processedAt: timestamp("processed_at", { withTimezone: true }),
  },
  (table) => [
    index("webhook_deliveries_pending_idx").on(table.state, table.nextAttemptAt),
    check("webhook_deliveries_state_check", sql`${table.state} in ('pending', 'processed', 'ignored', 'failed', 'unparseable')`),
  ],
);

/*
 * One row per distinct upstream event about a verification (several deliveries of one event make one
 * row): the verification's timeline and the feed the open pages poll. `id` is the feed's cursor: rows
 * are inserted under one advisory lock held to commit, so ids become visible in increasing order and a
 * reader that has seen id N never misses a later-committed id below N.
 */
export const verificationEvents = pgTable(
  "verification_events",
  {
    id: bigserial("id", { mode: "number" }).primaryKey(),
    // The envelope's event id, or a hash of the flat payload's identifying fields (lib/webhooks/server/parse.ts).
    eventKey: text("event_key").notNull().unique(),
    publicId: text("public_id").notNull(),
    event: text("event").notNull(),
    status: text("status"),
    refId: text("ref_id"),
    occurredAt: timestamp("occurred_at", { withTimezone: true }).notNull(),
    // What else the event said (lib/webhooks/server/parse.ts): the flat shape's scores, the envelope's decision time
    // and account. Null when the event did not say.
    identityScore: doublePrecision("identity_score"),
    fraudScore: doublePrecision("fraud_score"),
    decidedAt: timestamp("decided_at", { withTimezone: true }),
    tenantPublicId: text("tenant_public_id"),
    // The connection the event was routed to (lib/webhooks/server/route-connection.ts).
    connectionId: text("connection_id").notNull().default("primary"),
    deliveryId: text("delivery_id").notNull(),
    recordedAt: timestamp("recorded_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [
    index("verification_events_public_id_idx").on(table.publicId, table.occurredAt),
    index("verification_events_connection_idx").on(table.connectionId, table.id),
  ],
);

export type WebhookDeliveryRow = typeof webhookDeliveries.$inferSelect;

export type VerificationEventRow = typeof verificationEvents.$inferSelect;
