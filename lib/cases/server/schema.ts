import { sql } from "drizzle-orm";
import { bigserial, boolean, check, index, integer, jsonb, pgTable, text, timestamp, uuid } from "drizzle-orm/pg-core";

import { staffUsers } from "../../auth/server/schema";

// Tables of this feature (drizzle-kit reads every lib/*/server/schema.ts: drizzle.config.ts). No `server-only`
// and no `@/` alias here: drizzle-kit loads schema files outside Next.

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
    // The sync run that last saw this case in the review list (lib/cases/server/sync.ts).
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
    documentMasked: text("document_masked"),
    createdHere: boolean("created_here").notNull().default(false),
    updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [index("verification_index_ref_idx").on(table.refId), index("verification_index_cpf_idx").on(table.cpfHash)],
);
