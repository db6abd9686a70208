import { sql } from "drizzle-orm";
import {
  bigint,
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

// One list for the table, the writer and the audit page's filter (relative import, as above).
import { AUDIT_OUTCOMES, type AuditOutcome } from "../audit-trail/outcomes";
// Relative import: drizzle-kit loads this file without the `@/` alias.
import { ROLES, type Role } from "../auth/roles";

/*
 * One schema for both drivers (PGlite in embedded mode, PostgreSQL in production). Migrations are
 * generated from this file with `npm run db:generate` into lib/db/migrations and committed.
 *
 * No `server-only` import here: drizzle-kit loads this file outside Next.
 */

export { ROLES, type Role };

export { AUDIT_OUTCOMES, type AuditOutcome };

const createdAt = () => timestamp("created_at", { withTimezone: true }).notNull().defaultNow();

export const staffUsers = pgTable(
  "staff_users",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    // Stored lower-cased by the application; the unique index on lower(email) is the real guarantee.
    email: text("email").notNull(),
    name: text("name").notNull().default(""),
    role: text("role", { enum: ROLES }).notNull(),
    // scrypt hash string (lib/auth/password.ts); null for accounts that only sign in through OIDC.
    passwordHash: text("password_hash"),
    // The identity provider's `sub`, bound on the first OIDC sign-in of an existing staff account.
    oidcSubject: text("oidc_subject"),
    disabled: boolean("disabled").notNull().default(false),
    // Invited accounts sign in with a one-time password and must choose their own before anything else.
    mustChangePassword: boolean("must_change_password").notNull().default(false),
    lastSignInAt: timestamp("last_sign_in_at", { withTimezone: true }),
    createdAt: createdAt(),
    updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [
    uniqueIndex("staff_users_email_lower_key").on(sql`lower(${table.email})`),
    uniqueIndex("staff_users_oidc_subject_key").on(table.oidcSubject),
    check("staff_users_role_check", sql`${table.role} in ('analyst', 'admin')`),
  ],
);

/*
 * Server-side record of each signed-in session. The JWT cookie only carries this row's id: signing
 * out revokes the row, so a copied cookie stops working, and idle/absolute timeouts are checked here.
 */
export const staffSessions = pgTable(
  "staff_sessions",
  {
    id: text("id").primaryKey(),
    userId: uuid("user_id")
      .notNull()
      .references(() => staffUsers.id, { onDelete: "cascade" }),
    method: text("method", { enum: ["password", "oidc"] }).notNull(),
    createdAt: createdAt(),
    lastSeenAt: timestamp("last_seen_at", { withTimezone: true }).notNull().defaultNow(),
    revokedAt: timestamp("revoked_at", { withTimezone: true }),
  },
  (table) => [index("staff_sessions_user_idx").on(table.userId)],
);

/*
 * Integration keys created from the dashboard: metadata as the upstream returned it. The key value
 * (the upstream `uuid`) is never stored: it is shown once and kept only in a sealed cookie.
 */
export const integrationKeys = pgTable("integration_keys", {
  id: uuid("id").primaryKey().defaultRandom(),
  upstreamId: bigint("upstream_id", { mode: "number" }).notNull().unique(),
  label: text("label").notNull(),
  // As returned by the upstream (a host without scheme).
  domain: text("domain").notNull(),
  ownerUserId: bigint("owner_user_id", { mode: "number" }),
  ownerTenantId: bigint("owner_tenant_id", { mode: "number" }),
  upstreamCreatedAt: timestamp("upstream_created_at", { withTimezone: true }),
  createdBy: uuid("created_by").references(() => staffUsers.id),
  createdAt: createdAt(),
});

/*
 * The audit trail. Append-only; each row's `hash` covers its fields and the previous row's hash, so
 * an edited or deleted row breaks the chain (lib/audit-trail/record.ts writes it, a verifier walks it by id).
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
    // Small and flat; never URLs, tokens or images (lib/audit-trail/record.ts refuses them).
    details: jsonb("details").$type<Record<string, unknown>>().notNull().default({}),
    prevHash: text("prev_hash").notNull(),
    hash: text("hash").notNull(),
  },
  (table) => [
    index("audit_events_at_idx").on(table.at),
    index("audit_events_actor_idx").on(table.actorId, table.at),
    index("audit_events_actor_email_idx").on(table.actorEmail, table.at),
    index("audit_events_action_idx").on(table.action, table.at),
    index("audit_events_outcome_idx").on(table.outcome, table.at),
    index("audit_events_target_hash_idx").on(table.targetHash),
    // The audit page's target filter (lib/audit-trail/query.ts), in `at` order like the others.
    index("audit_events_target_idx").on(table.target, table.at),
    check("audit_events_outcome_check", sql`${table.outcome} in ('success', 'failure', 'denied', 'intent')`),
  ],
);

/*
 * Retention checkpoints (lib/audit-trail/prune.ts): when `npm run audit:prune` removes the oldest events,
 * it keeps the id and hash of the last one removed, signed with the audit key, so the first remaining
 * event still chains to something the verifier trusts. Append-only, like the trail.
 */
export const auditCheckpoints = pgTable("audit_checkpoints", {
  id: bigserial("id", { mode: "number" }).primaryKey(),
  createdAt: timestamp("created_at", { withTimezone: true }).notNull(),
  throughEventId: bigint("through_event_id", { mode: "number" }).notNull(),
  throughEventHash: text("through_event_hash").notNull(),
  throughEventAt: timestamp("through_event_at", { withTimezone: true }).notNull(),
  removedCount: bigint("removed_count", { mode: "number" }).notNull(),
  cutoff: timestamp("cutoff", { withTimezone: true }).notNull(),
  retentionDays: integer("retention_days").notNull(),
  signature: text("signature").notNull(),
});

/*
 * Fixed-window counters shared by every instance: sign-in failures per account and per address now,
 * per-user lookup limits later. A row per key and window; `expires_at` lets old rows be swept.
 */
export const rateLimits = pgTable(
  "rate_limits",
  {
    key: text("key").notNull(),
    windowStart: timestamp("window_start", { withTimezone: true }).notNull(),
    count: integer("count").notNull().default(0),
    expiresAt: timestamp("expires_at", { withTimezone: true }).notNull(),
  },
  (table) => [primaryKey({ columns: [table.key, table.windowStart] }), index("rate_limits_expires_idx").on(table.expiresAt)],
);

export const WEBHOOK_DELIVERY_STATES = ["pending", "processed", "ignored", "failed"] as const;
export type WebhookDeliveryState = (typeof WEBHOOK_DELIVERY_STATES)[number];

/*
 * The service's webhook deliveries, stored before the receiver answers 2xx (lib/webhooks/store.ts). The
 * unique delivery id makes a redelivery a no-op under concurrency (one INSERT … ON CONFLICT, never a
 * SELECT first). `body` is the signed raw body, kept so the processor works out of the request; the
 * signature itself is not kept. Processors on every instance claim pending rows with FOR UPDATE SKIP LOCKED.
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
    // A short reason (an error's name and message, redacted), never the body.
    lastError: text("last_error"),
    receivedAt: timestamp("received_at", { withTimezone: true }).notNull().defaultNow(),
    processedAt: timestamp("processed_at", { withTimezone: true }),
  },
  (table) => [
    index("webhook_deliveries_pending_idx").on(table.state, table.nextAttemptAt),
    check("webhook_deliveries_state_check", sql`${table.state} in ('pending', 'processed', 'ignored', 'failed')`),
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
    // The envelope's event id, or a hash of the flat payload's identifying fields (lib/webhooks/parse.ts).
    eventKey: text("event_key").notNull().unique(),
    publicId: text("public_id").notNull(),
    event: text("event").notNull(),
    status: text("status"),
    refId: text("ref_id"),
    occurredAt: timestamp("occurred_at", { withTimezone: true }).notNull(),
    deliveryId: text("delivery_id").notNull(),
    recordedAt: timestamp("recorded_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [index("verification_events_public_id_idx").on(table.publicId, table.occurredAt)],
);

/*
 * Case work (issue 9): a case per verification that needs a person, worked in the dashboard beside the
 * upstream verification (the upstream stays the source of truth for its status). One row per verification;
 * the claim is one conditional UPDATE on `assignee_id`, so two instances cannot both win it.
 * Only masked identity data is kept here: the document as the upstream showed it masked, never a raw CPF.
 */
export const CASE_STATUSES = ["open", "closed"] as const;
export const OUTCOME_STATES = ["pending_confirmation", "confirmed", "rejected", "recorded"] as const;

export const cases = pgTable(
  "cases",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    publicId: text("public_id").notNull().unique(),
    status: text("status", { enum: CASE_STATUSES }).notNull().default("open"),
    upstreamStatus: text("upstream_status").notNull(),
    // Red flags at the last look (lib/cases/rules.ts); `priority` is derived from them for sorting.
    flags: text("flags")
      .array()
      .notNull()
      .default(sql`'{}'::text[]`),
    priority: integer("priority").notNull().default(0),
    documentMasked: text("document_masked"),
    upstreamCreatedAt: timestamp("upstream_created_at", { withTimezone: true }),
    openedAt: timestamp("opened_at", { withTimezone: true }).notNull().defaultNow(),
    dueAt: timestamp("due_at", { withTimezone: true }).notNull(),
    closedAt: timestamp("closed_at", { withTimezone: true }),
    finalStatus: text("final_status"),
    // True when the upstream's final status contradicts the case's effective recommendation.
    disagreement: boolean("disagreement").notNull().default(false),
    assigneeId: uuid("assignee_id").references(() => staffUsers.id),
    assignedAt: timestamp("assigned_at", { withTimezone: true }),
    recommendation: text("recommendation", { enum: ["approve", "reprove", "escalate"] }),
    reasons: text("reasons").array(),
    outcomeComment: text("outcome_comment"),
    outcomeBy: uuid("outcome_by").references(() => staffUsers.id),
    outcomeAt: timestamp("outcome_at", { withTimezone: true }),
    outcomeState: text("outcome_state", { enum: OUTCOME_STATES }),
    confirmedBy: uuid("confirmed_by").references(() => staffUsers.id),
    confirmedAt: timestamp("confirmed_at", { withTimezone: true }),
    // The sync run that last saw this case in the review list (lib/cases/sync.ts).
    lastSeenAt: timestamp("last_seen_at", { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [
    index("cases_queue_idx").on(table.status, table.openedAt),
    index("cases_assignee_idx").on(table.assigneeId, table.status),
    check("cases_status_check", sql`${table.status} in ('open', 'closed')`),
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
    text: text("text"),
    details: jsonb("details").$type<Record<string, unknown>>().notNull().default({}),
  },
  (table) => [index("case_entries_case_idx").on(table.caseId, table.id)],
);

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
    documentMasked: text("document_masked"),
    createdHere: boolean("created_here").notNull().default(false),
    updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [index("verification_index_ref_idx").on(table.refId), index("verification_index_cpf_idx").on(table.cpfHash)],
);

/*
 * Leases for work one instance does at a time (the case sync): taken with one conditional upsert, so
 * instances sharing a PostgreSQL never run it twice at once, and `last_finished_at` spaces scheduled runs.
 */
export const jobLeases = pgTable("job_leases", {
  name: text("name").primaryKey(),
  holder: text("holder"),
  expiresAt: timestamp("expires_at", { withTimezone: true }).notNull(),
  lastFinishedAt: timestamp("last_finished_at", { withTimezone: true }),
});

export type StaffUserRow = typeof staffUsers.$inferSelect;
export type StaffSessionRow = typeof staffSessions.$inferSelect;
export type AuditEventRow = typeof auditEvents.$inferSelect;
export type IntegrationKeyRow = typeof integrationKeys.$inferSelect;
export type AuditCheckpointRow = typeof auditCheckpoints.$inferSelect;
export type WebhookDeliveryRow = typeof webhookDeliveries.$inferSelect;
export type VerificationEventRow = typeof verificationEvents.$inferSelect;
export type CaseRow = typeof cases.$inferSelect;
export type CaseEntryRow = typeof caseEntries.$inferSelect;
