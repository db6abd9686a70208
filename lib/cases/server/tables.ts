import { sql } from "drizzle-orm";
import {
  bigserial,
  boolean,
  check,
  index,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from "drizzle-orm/pg-core";
import type { AnyPgColumn } from "drizzle-orm/pg-core";

import { staffUserId, staffUsers } from "@/lib/auth/server/tables";
import type { RoutingConditions } from "@/lib/cases/routing-rules";
import type { TakeMode } from "@/lib/cases/take-mode";

// Tables of this feature (drizzle-kit reads every lib/*/server/tables.ts: drizzle.config.ts). No `server-only`
// and no `@/` alias here: drizzle-kit loads schema files outside Next.

/*
 * Case work (issue 9): a case per verification that needs a person, worked in the dashboard beside the
 * upstream verification (the upstream stays the source of truth for its status). One row per verification;
 * the claim is one conditional UPDATE on `assignee_id`, so two instances cannot both win it.
 * Identity data kept here: the document masked (never a raw CPF), and the person's name sealed (`person_name`).
 */
export const CASE_STATUSES = ["open", "closed"] as const;

/** The queue every deployment starts with (made by the migration); routing rules send cases elsewhere. */
export const DEFAULT_QUEUE_ID = "00000000-0000-4000-8000-000000000001";

export const OUTCOME_STATES = ["pending_confirmation", "confirmed", "rejected", "recorded"] as const;

export const CLOSED_REASONS = ["decided", "expired"] as const;

export const cases = pgTable(
  "cases",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    publicId: text("public_id").notNull().unique(),
    // The connection whose key reads the verification (lib/connections): the queue and a case are read under it.
    connectionId: text("connection_id").notNull().default("primary"),
    status: text("status", { enum: CASE_STATUSES }).notNull().default("open"),
    upstreamStatus: text("upstream_status").notNull(),
    // Red flags at the last look (lib/cases/rules.ts); the queue's priority is computed from them when it is read
    // (lib/cases/priority.ts), never stored.
    flags: text("flags")
      .array()
      .notNull()
      .default(sql`'{}'::text[]`),
    documentMasked: text("document_masked"),
    // The person's name as the verification gave it (the service masks it for a key without the unmasked
    // permission). Sealed at rest like a note's text (./sealed-text.ts, column `personName`); the queue masks it
    // again for a member without personal_data.unmasked. Cleared by an erasure and never written again after one.
    personName: text("person_name"),
    upstreamCreatedAt: timestamp("upstream_created_at", { withTimezone: true }),
    openedAt: timestamp("opened_at", { withTimezone: true }).notNull().defaultNow(),
    dueAt: timestamp("due_at", { withTimezone: true }).notNull(),
    closedAt: timestamp("closed_at", { withTimezone: true }),
    finalStatus: text("final_status"),
    // Why a closed case closed: its verification was decided by the provider, or the person's flow expired without
    // an outcome (lib/upstream/model/verification.ts `isExpired`). Null on cases closed before it was kept (decided).
    closedReason: text("closed_reason", { enum: CLOSED_REASONS }),
    // The provider's review sub-state (open, assigned, decided) as last read; shown beside the case's own stage.
    upstreamReviewState: text("upstream_review_state"),
    // True when the upstream's final status contradicts the case's effective recommendation.
    disagreement: boolean("disagreement").notNull().default(false),
    assigneeId: uuid("assignee_id").references(() => staffUsers.id),
    assignedAt: timestamp("assigned_at", { withTimezone: true }),
    recommendation: text("recommendation", { enum: ["approve", "reprove", "escalate"] }),
    reasons: text("reasons").array(),
    // Sealed at rest like a note's text.
    outcomeComment: text("outcome_comment"),
    outcomeBy: uuid("outcome_by").references(() => staffUsers.id),
    outcomeAt: timestamp("outcome_at", { withTimezone: true }),
    outcomeState: text("outcome_state", { enum: OUTCOME_STATES }),
    confirmedBy: uuid("confirmed_by").references(() => staffUsers.id),
    confirmedAt: timestamp("confirmed_at", { withTimezone: true }),
    // The queue the routing rules sent the case to (the default queue until a rule says otherwise).
    queueId: uuid("queue_id")
      .notNull()
      .default(DEFAULT_QUEUE_ID)
      .references((): AnyPgColumn => caseQueues.id, { onDelete: "restrict" }),
    // When the case passed its due time and its queue's leads were told: set once, so escalation fires once.
    escalatedAt: timestamp("escalated_at", { withTimezone: true }),
    // The sync run that last saw this case in the review list (lib/cases/server/sync.ts).
    lastSeenAt: timestamp("last_seen_at", { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
    // An erasure (lib/privacy) cleared the case's free text (outcome comment, notes) on this date.
    erasedAt: timestamp("erased_at", { withTimezone: true }),
  },
  (table) => [
    index("cases_queue_idx").on(table.status, table.openedAt),
    index("cases_assignee_idx").on(table.assigneeId, table.status),
    index("cases_connection_idx").on(table.connectionId, table.status, table.openedAt),
    check("cases_status_check", sql`${table.status} in ('open', 'closed')`),
    check("cases_closed_reason_check", sql`${table.closedReason} is null or ${table.closedReason} in ('decided', 'expired')`),
    check(
      "cases_recommendation_check",
      sql`${table.recommendation} is null or ${table.recommendation} in ('approve', 'reprove', 'escalate')`,
    ),
  ],
);

/*
 * A case's history, append-only: opened, assigned, unassigned, note, outcome, confirmation, closed, reopened.
 * A note's text lives here (the audit trail only records that a note was added).
 */
export const caseEntries = pgTable(
  "case_entries",
  {
    id: bigserial("id", { mode: "number" }).primaryKey(),
    caseId: uuid("case_id")
      .notNull()
      .references(() => cases.id, { onDelete: "cascade" }),
    at: timestamp("at", { withTimezone: true }).notNull().defaultNow(),
    actorId: uuid("actor_id").references(() => staffUsers.id),
    kind: text("kind").notNull(),
    // Sealed at rest (lib/keys/ring.ts sealText, DATA_ENCRYPTION_SECRET's ring; the key id is in the envelope).
    text: text("text"),
    details: jsonb("details").$type<Record<string, unknown>>().notNull().default({}),
    // An erasure (lib/privacy) cleared `text`: who confirmed it and when, shown as a tombstone.
    redactedAt: timestamp("redacted_at", { withTimezone: true }),
    redactedBy: uuid("redacted_by").references(() => staffUsers.id),
  },
  (table) => [
    index("case_entries_case_idx").on(table.caseId, table.id),
    // The team's numbers read entries by kind and period (lib/analytics/server/team.ts): migration 0039.
    index("case_entries_kind_at_idx").on(table.kind, table.at),
  ],
);

export type CaseRow = typeof cases.$inferSelect;

export type CaseEntryRow = typeof caseEntries.$inferSelect;

/*
 * Search index of verifications by the caller's `ref_id` and by CPF (keyed hash, as the audit trail
 * keeps it): those created here and any an event or the sync names.
 */
export const verificationIndex = pgTable(
  "verification_index",
  {
    publicId: text("public_id").primaryKey(),
    refId: text("ref_id"),
    cpfHash: text("cpf_hash"),
    // The audit key (AUDIT_HASH_SECRET's ring) `cpf_hash` was made under; entries under an older key are re-keyed.
    cpfKeyId: text("cpf_key_id"),
    documentMasked: text("document_masked"),
    createdHere: boolean("created_here").notNull().default(false),
    // The connection whose key reads the verification: a search answers the page's connection's entries only.
    connectionId: text("connection_id").notNull().default("primary"),
    updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [index("verification_index_ref_idx").on(table.refId), index("verification_index_cpf_idx").on(table.cpfHash)],
);

/*
 * The people an erasure removed from the search index (lib/privacy/server/erasure.ts): the keyed hashes of their
 * CPF only, one per audit key the erasure knew, plus the current key's when a read meets them again after a rotation.
 * Every write to the index skips them (lib/cases/server/search.ts), so no later read indexes an erased person again.
 */
export const searchIndexErased = pgTable("search_index_erased", {
  cpfHash: text("cpf_hash").primaryKey(),
  erasureId: uuid("erasure_id").notNull(),
  erasedAt: timestamp("erased_at", { withTimezone: true }).notNull(),
});

/*
 * Routing (issue 23): named queues with members (leads are told of escalations), rules in order that send a
 * new case to a queue by its red flags, flow, journey, risk score or age, and the team's settings (one row):
 * auto-assignment and the per-member capacity. A retired queue keeps its id for the cases and the trail.
 */
export const caseQueues = pgTable(
  "case_queues",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    name: text("name").notNull(),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    retiredAt: timestamp("retired_at", { withTimezone: true }),
  },
  (table) => [
    uniqueIndex("case_queues_name_key")
      .on(sql`lower(${table.name})`)
      .where(sql`${table.retiredAt} is null`),
  ],
);

export const caseQueueMembers = pgTable(
  "case_queue_members",
  {
    queueId: uuid("queue_id")
      .notNull()
      .references(() => caseQueues.id, { onDelete: "cascade" }),
    userId: staffUserId(),
    lead: boolean("lead").notNull().default(false),
  },
  (table) => [primaryKey({ columns: [table.queueId, table.userId] })],
);

export const caseRoutingRules = pgTable(
  "case_routing_rules",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    position: integer("position").notNull(),
    queueId: uuid("queue_id")
      .notNull()
      .references(() => caseQueues.id, { onDelete: "cascade" }),
    conditions: jsonb("conditions").$type<RoutingConditions>().notNull().default({}),
  },
  (table) => [index("case_routing_rules_position_idx").on(table.position)],
);

export const caseRoutingSettings = pgTable(
  "case_routing_settings",
  {
    // One row (id 1).
    id: integer("id").primaryKey(),
    autoAssign: boolean("auto_assign").notNull().default(false),
    // Open cases a member may hold before auto-assignment passes them by.
    capacity: integer("capacity").notNull().default(10),
    // When a member takes an unassigned case: TAKE_MODES (lib/cases/take-mode.ts), checked by the migration.
    takeMode: text("take_mode").$type<TakeMode>().notNull().default("on_decision"),
    updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [check("case_routing_settings_take_mode_check", sql`${table.takeMode} in ('on_open', 'on_decision', 'never')`)],
);

/** A re-verification asked from a case: the new verification, for the same document, linked to the case. */
export const caseReverifications = pgTable(
  "case_reverifications",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    caseId: uuid("case_id")
      .notNull()
      .references(() => cases.id, { onDelete: "cascade" }),
    publicId: text("public_id").notNull(),
    refId: text("ref_id").notNull(),
    requestedBy: uuid("requested_by").references(() => staffUsers.id),
    requestedAt: timestamp("requested_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [
    index("case_reverifications_case_idx").on(table.caseId),
    uniqueIndex("case_reverifications_public_id_key").on(table.publicId),
  ],
);

export type CaseQueueRow = typeof caseQueues.$inferSelect;

/*
 * Decision templates (issue 32): a reason set and a comment with placeholders for one kind of decision, personal
 * (`ownerId`, the member's own) or the team's (`ownerId` null, managed by cases.assign). Retired, never deleted. The
 * comment holds no personal data by rule (a CPF is refused at save: lib/cases/templates.ts), so it is not sealed.
 */
export const caseTemplates = pgTable(
  "case_templates",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    kind: text("kind", { enum: ["approve", "reprove", "escalate"] }).notNull(),
    scope: text("scope", { enum: ["team", "personal"] }).notNull(),
    ownerId: uuid("owner_id").references(() => staffUsers.id, { onDelete: "cascade" }),
    name: text("name").notNull(),
    reasons: text("reasons")
      .array()
      .notNull()
      .default(sql`'{}'::text[]`),
    comment: text("comment").notNull().default(""),
    createdBy: uuid("created_by").references(() => staffUsers.id, { onDelete: "set null" }),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
    retiredAt: timestamp("retired_at", { withTimezone: true }),
  },
  (table) => [
    uniqueIndex("case_templates_name_key")
      .on(table.kind, table.scope, sql`coalesce(${table.ownerId}, '00000000-0000-0000-0000-000000000000'::uuid)`, sql`lower(${table.name})`)
      .where(sql`${table.retiredAt} is null`),
    index("case_templates_owner_idx").on(table.ownerId, table.kind),
    check("case_templates_kind_check", sql`${table.kind} in ('approve', 'reprove', 'escalate')`),
    check(
      "case_templates_scope_check",
      sql`(${table.scope} = 'personal' and ${table.ownerId} is not null) or (${table.scope} = 'team' and ${table.ownerId} is null)`,
    ),
  ],
);

export type CaseTemplateRow = typeof caseTemplates.$inferSelect;

export const SUSPICIOUS_ACTIVITY_STATUSES = ["draft", "filed"] as const;

/*
 * Suspicious-activity reports to COAF (Lei 9.613/1998 art. 11), opened from a case by a member holding `coaf.report`:
 * the summary sealed under the data key ring (purpose `coaf-report-summary`), the grounds (lib/cases/suspicious-activity.ts),
 * the operations, and once filed the SISCOAF protocol and date. The person must never learn of one (art. 11 §2): no
 * person-facing path, titular report or member without `coaf.report` reads this table or its `coaf.*` audit events.
 * Kept five years from filing (retention kind `suspicious_activity_reports`) and never touched by an erasure. The
 * case may be removed first by its own retention: `case_id` then goes null, its public id and masked document stay.
 */
export const suspiciousActivityReports = pgTable(
  "suspicious_activity_reports",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    caseId: uuid("case_id").references(() => cases.id, { onDelete: "set null" }),
    casePublicId: text("case_public_id").notNull(),
    connectionId: text("connection_id").notNull(),
    documentMasked: text("document_masked"),
    summarySealed: text("summary_sealed").notNull(),
    grounds: text("grounds").array().notNull(),
    operations: jsonb("operations").$type<Array<{ date: string; amount: number; description: string }>>().notNull().default([]),
    status: text("status", { enum: SUSPICIOUS_ACTIVITY_STATUSES }).notNull().default("draft"),
    openedBy: uuid("opened_by")
      .notNull()
      .references(() => staffUsers.id),
    openedAt: timestamp("opened_at", { withTimezone: true }).notNull().defaultNow(),
    protocol: text("protocol"),
    filedAt: timestamp("filed_at", { withTimezone: true }),
    filedBy: uuid("filed_by").references(() => staffUsers.id),
    filedRecordedAt: timestamp("filed_recorded_at", { withTimezone: true }),
  },
  (table) => [
    index("suspicious_activity_reports_status_idx").on(table.status, table.openedAt),
    index("suspicious_activity_reports_case_idx").on(table.caseId),
    check("suspicious_activity_reports_status_check", sql`${table.status} in ('draft', 'filed')`),
    check(
      "suspicious_activity_reports_filed_check",
      sql`(${table.status} = 'filed') = (${table.protocol} is not null) and (${table.status} = 'filed') = (${table.filedAt} is not null)`,
    ),
  ],
);
