import { sql } from "drizzle-orm";
import { boolean, check, index, integer, jsonb, pgTable, text, timestamp, uniqueIndex, uuid } from "drizzle-orm/pg-core";

import { staffUsers } from "@/lib/auth/server/tables";
import { caseQueues, cases, DEFAULT_QUEUE_ID } from "@/lib/cases/server/tables";

// Tables of this feature (drizzle-kit reads every lib/*/server/tables.ts: drizzle.config.ts). No `server-only`
// and no `@/` alias here: drizzle-kit loads schema files outside Next.

/*
 * Ongoing screening (issue 34, item 2): people the dashboard approved are looked up again, oldest screening first,
 * within a daily budget of upstream calls the admin sets; a new PEP status, a new restrictive list or a death opens a
 * monitoring alert. See docs/compliance.md, "Ongoing screening".
 */

/** The one settings row (id 1): the daily budget, and what today's runs spent of it. */
export const monitoringSettings = pgTable(
  "monitoring_settings",
  {
    id: integer("id").primaryKey().default(1),
    // Upstream calls the screening may spend per day (the display time zone's day); 0 stops it.
    dailyBudget: integer("daily_budget").notNull().default(0),
    // The day `spentCalls` counts (YYYY-MM-DD); another day starts from 0.
    spentDay: text("spent_day"),
    spentCalls: integer("spent_calls").notNull().default(0),
    updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [
    check("monitoring_settings_one_row", sql`${table.id} = 1`),
    check("monitoring_settings_budget_check", sql`${table.dailyBudget} >= 0`),
  ],
);

/*
 * One row per approved verification screened: when, and the facts seen then. Nothing personal beyond them: the CPF
 * only as the audit ring's keyed hash (when the service showed it) and the masked document.
 */
export const monitoringScreenings = pgTable(
  "monitoring_screenings",
  {
    // The approved case's verification: the row goes with the case (the cases' retention policy).
    publicId: text("public_id")
      .primaryKey()
      .references(() => cases.publicId, { onDelete: "cascade" }),
    connectionId: text("connection_id").notNull(),
    cpfHash: text("cpf_hash"),
    // The audit key (AUDIT_HASH_SECRET's ring) `cpf_hash` was made under.
    cpfKeyId: text("cpf_key_id"),
    documentMasked: text("document_masked"),
    lastScreenedAt: timestamp("last_screened_at", { withTimezone: true }).notNull(),
    pep: boolean("pep").notNull(),
    lists: text("lists")
      .array()
      .notNull()
      .default(sql`'{}'::text[]`),
    deceased: boolean("deceased").notNull(),
    // Whether the CPF enrichment was read too (it needs the CPF, which a masked key does not show).
    cpfChecked: boolean("cpf_checked").notNull().default(false),
  },
  (table) => [index("monitoring_screenings_due_idx").on(table.lastScreenedAt)],
);

export const ALERT_OUTCOMES = ["cleared", "confirmed"] as const;

/*
 * A monitoring alert: what changed (`change`: `pep`, `deceased`, or `list:<name>`) for an approved verification's
 * person, and when it was seen. Worked like a case: an owner, then an outcome. One open alert per change and
 * verification, whatever instance or run saw it (the partial unique index); a change that went away and came back
 * after its alert was closed opens a new one (a person delisted, then listed again).
 */
export const monitoringAlerts = pgTable(
  "monitoring_alerts",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    // The approved case's verification: the alert goes with the case (the cases' retention policy).
    publicId: text("public_id")
      .notNull()
      .references(() => cases.publicId, { onDelete: "cascade" }),
    connectionId: text("connection_id").notNull(),
    documentMasked: text("document_masked"),
    change: text("change").notNull(),
    // The facts before and after (booleans and list names only).
    details: jsonb("details").$type<Record<string, unknown>>().notNull().default({}),
    detectedAt: timestamp("detected_at", { withTimezone: true }).notNull().defaultNow(),
    status: text("status", { enum: ["open", "closed"] })
      .notNull()
      .default("open"),
    assigneeId: uuid("assignee_id").references(() => staffUsers.id),
    assignedAt: timestamp("assigned_at", { withTimezone: true }),
    outcome: text("outcome", { enum: ALERT_OUTCOMES }),
    outcomeBy: uuid("outcome_by").references(() => staffUsers.id),
    outcomeAt: timestamp("outcome_at", { withTimezone: true }),
    // The queue the team's routing rules sent it to (lib/monitoring/server/routing.ts); a retired queue's open alerts
    // go to the default queue, as its cases do (lib/cases/server/routing.ts).
    queueId: uuid("queue_id")
      .notNull()
      .default(DEFAULT_QUEUE_ID)
      .references(() => caseQueues.id, { onDelete: "restrict" }),
  },
  (table) => [
    uniqueIndex("monitoring_alerts_open_change_idx")
      .on(table.publicId, table.change)
      .where(sql`${table.status} = 'open'`),
    index("monitoring_alerts_queue_idx").on(table.status, table.detectedAt),
    // What a member holds: their load against the team's capacity (lib/cases/server/auto-assign.ts).
    index("monitoring_alerts_holder_idx")
      .on(table.assigneeId)
      .where(sql`${table.status} = 'open'`),
    check("monitoring_alerts_status_check", sql`${table.status} in ('open', 'closed')`),
    check("monitoring_alerts_outcome_check", sql`${table.outcome} is null or ${table.outcome} in ('cleared', 'confirmed')`),
  ],
);
