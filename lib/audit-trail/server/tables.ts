import { sql } from "drizzle-orm";
import { bigint, bigserial, boolean, check, index, integer, jsonb, pgTable, text, timestamp, uuid } from "drizzle-orm/pg-core";

import { AUDIT_OUTCOMES } from "@/lib/audit-trail/outcomes";

// Tables of this feature (drizzle-kit reads every lib/*/server/tables.ts: drizzle.config.ts). No `server-only`
// and no `@/` alias here: drizzle-kit loads schema files outside Next.

/*
 * The audit trail. Append-only; each row's `hash` covers its fields and the previous row's hash, so
 * an edited or deleted row breaks the chain (lib/audit-trail/server/record.ts writes it, a verifier walks it by id).
 * No foreign key to staff_users: the trail must outlive whatever it mentions.
 */
export const auditEvents = pgTable(
  "audit_events",
  {
    id: bigserial("id", { mode: "number" }).primaryKey(),
    at: timestamp("at", { withTimezone: true }).notNull(),
    actorId: uuid("actor_id"),
    actorEmail: text("actor_email"),
    action: text("action").notNull(),
    targetType: text("target_type"),
    // Masked when it is personal data (a CPF shows as ***.982.247-**).
    target: text("target"),
    // HMAC of the unmasked identifier, so an auditor can search by CPF without it being stored.
    targetHash: text("target_hash"),
    purpose: text("purpose"),
    outcome: text("outcome", { enum: AUDIT_OUTCOMES }).notNull(),
    ip: text("ip"),
    // Small and flat; never URLs, tokens or images (lib/audit-trail/server/record.ts refuses them).
    details: jsonb("details").$type<Record<string, unknown>>().notNull().default({}),
    prevHash: text("prev_hash").notNull(),
    hash: text("hash").notNull(),
    // The audit key (AUDIT_HASH_SECRET's ring, lib/keys/ring.ts) that keyed `hash` and `target_hash`.
    keyId: text("key_id").notNull().default("1"),
    // The connection the event was recorded under (lib/connections), null when none; chained when set.
    connectionId: text("connection_id"),
  },
  (table) => [
    index("audit_events_at_idx").on(table.at),
    index("audit_events_actor_idx").on(table.actorId, table.at),
    index("audit_events_actor_email_idx").on(table.actorEmail, table.at),
    index("audit_events_action_idx").on(table.action, table.at),
    index("audit_events_outcome_idx").on(table.outcome, table.at),
    index("audit_events_target_hash_idx").on(table.targetHash),
    index("audit_events_connection_idx").on(table.connectionId, table.at),
    // The audit page's target filter (lib/audit-trail/server/query.ts), in `at` order like the others.
    index("audit_events_target_idx").on(table.target, table.at),
    check("audit_events_outcome_check", sql`${table.outcome} in ('success', 'failure', 'denied', 'intent')`),
  ],
);

/*
 * Signed checkpoints (lib/audit-trail/server/checkpoint.ts), two kinds:
 * - `prune`: when the pruner removes the oldest events, it keeps the id and hash of the last one removed, signed
 *   with the audit key, so the first remaining event still chains to something the verifier trusts;
 * - `head`: the chain's newest event (id and hash) signed at a moment (after a prune, after `audit:verify`), so
 *   events cut off the end, or a tail rewritten without the key, show against it.
 * Append-only, like the trail: the database refuses UPDATE and DELETE (migration 0011_audit_append_only).
 */
export const auditCheckpoints = pgTable("audit_checkpoints", {
  id: bigserial("id", { mode: "number" }).primaryKey(),
  kind: text("kind", { enum: ["prune", "head"] })
    .notNull()
    .default("prune"),
  createdAt: timestamp("created_at", { withTimezone: true }).notNull(),
  throughEventId: bigint("through_event_id", { mode: "number" }).notNull(),
  throughEventHash: text("through_event_hash").notNull(),
  throughEventAt: timestamp("through_event_at", { withTimezone: true }).notNull(),
  removedCount: bigint("removed_count", { mode: "number" }).notNull(),
  cutoff: timestamp("cutoff", { withTimezone: true }).notNull(),
  retentionDays: integer("retention_days").notNull(),
  signature: text("signature").notNull(),
  // The audit key that signed it.
  keyId: text("key_id").notNull().default("1"),
  // The transaction that wrote it (txid_current()): the database lets a DELETE of events through only after a
  // retention checkpoint covering them was written in the same transaction (migration 0015).
  txid: bigint("txid", { mode: "number" }).default(sql`txid_current()`),
});

/*
 * The trail's end: one row counting the events ever appended (migration 0015). Writers take their ids from it under
 * the chain's lock, so ids are gapless; the database refuses lowering it. `gapless_from` is the first id so
 * allocated; `chain_id` names this trail in the copy of its head kept outside the database (AUDIT_HEAD_FILE).
 */
export const auditChainHead = pgTable(
  "audit_chain_head",
  {
    id: boolean("id").primaryKey().default(true),
    chainId: uuid("chain_id").notNull().defaultRandom(),
    lastEventId: bigint("last_event_id", { mode: "number" }).notNull(),
    gaplessFrom: bigint("gapless_from", { mode: "number" }).notNull(),
  },
  (table) => [check("audit_chain_head_one_row", sql`${table.id}`)],
);

export type AuditEventRow = typeof auditEvents.$inferSelect;

export type AuditCheckpointRow = typeof auditCheckpoints.$inferSelect;
