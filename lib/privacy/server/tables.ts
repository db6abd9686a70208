import { sql } from "drizzle-orm";
import { bigint, check, index, jsonb, pgTable, text, timestamp, uuid } from "drizzle-orm/pg-core";

import { staffUsers } from "@/lib/auth/server/tables";

// Tables of this feature (drizzle-kit reads every lib/*/server/tables.ts: drizzle.config.ts). No `server-only`
// and no `@/` alias here: drizzle-kit loads schema files outside Next.

export const ERASURE_STATES = ["pending", "confirmed", "cancelled"] as const;

/*
 * Erasure requests (LGPD art. 18, VI): one member asks, another confirms (four eyes, held by the database
 * too: the confirmer can never be the requester). The person is known by the keyed hashes of their CPF under
 * every audit key in the ring at the time of the request, never by the CPF itself; `result` lists what was
 * erased and what was kept, and why.
 */
export const privacyErasures = pgTable(
  "privacy_erasures",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    cpfHashes: text("cpf_hashes").array().notNull(),
    documentMasked: text("document_masked").notNull(),
    reason: text("reason").notNull(),
    state: text("state", { enum: ERASURE_STATES }).notNull().default("pending"),
    requestedBy: uuid("requested_by")
      .notNull()
      .references(() => staffUsers.id),
    requestedAt: timestamp("requested_at", { withTimezone: true }).notNull().defaultNow(),
    decidedBy: uuid("decided_by").references(() => staffUsers.id),
    decidedAt: timestamp("decided_at", { withTimezone: true }),
    result: jsonb("result").$type<Record<string, unknown>>(),
  },
  (table) => [
    index("privacy_erasures_state_idx").on(table.state, table.requestedAt),
    check("privacy_erasures_state_check", sql`${table.state} in ('pending', 'confirmed', 'cancelled')`),
    check("privacy_erasures_four_eyes", sql`${table.decidedBy} is null or ${table.decidedBy} <> ${table.requestedBy}`),
  ],
);

export type PrivacyErasureRow = typeof privacyErasures.$inferSelect;

export const PRIVACY_REQUEST_STATES = ["open", "closed"] as const;
export const PRIVACY_REQUEST_ANSWERS = ["report", "erasure", "written"] as const;

/*
 * Titular requests on a clock (LGPD art. 18 and 19; ANPD resolution 18/2024): what the titular asked, through which
 * channel and when it was received, and its due time (PRIVACY_REQUEST_DUE_DAYS after receipt, fixed when it is
 * opened). The person is known by the keyed hashes of their CPF and its masked form, never by the CPF; the contact
 * and the written answer are sealed under the data key ring (they may name the person), the contact's masked form
 * kept beside it. `late_notified_at` is claimed by one conditional update, so a late request is told once.
 */
export const privacyRequests = pgTable(
  "privacy_requests",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    cpfHashes: text("cpf_hashes").array().notNull(),
    documentMasked: text("document_masked").notNull(),
    kind: text("kind").notNull(),
    channel: text("channel").notNull(),
    contactSealed: text("contact_sealed"),
    contactMasked: text("contact_masked"),
    receivedAt: timestamp("received_at", { withTimezone: true }).notNull(),
    dueAt: timestamp("due_at", { withTimezone: true }).notNull(),
    state: text("state", { enum: PRIVACY_REQUEST_STATES }).notNull().default("open"),
    openedBy: uuid("opened_by")
      .notNull()
      .references(() => staffUsers.id),
    openedAt: timestamp("opened_at", { withTimezone: true }).notNull().defaultNow(),
    lateNotifiedAt: timestamp("late_notified_at", { withTimezone: true }),
    closedBy: uuid("closed_by").references(() => staffUsers.id),
    closedAt: timestamp("closed_at", { withTimezone: true }),
    sent: text("sent", { enum: PRIVACY_REQUEST_ANSWERS }),
    answerSealed: text("answer_sealed"),
    erasureId: uuid("erasure_id").references(() => privacyErasures.id),
    reportEventId: bigint("report_event_id", { mode: "number" }),
  },
  (table) => [
    index("privacy_requests_open_idx")
      .on(table.dueAt)
      .where(sql`state = 'open'`),
    index("privacy_requests_closed_idx").on(table.state, table.closedAt),
    check("privacy_requests_state_check", sql`${table.state} in ('open', 'closed')`),
    check(
      "privacy_requests_kind_check",
      sql`${table.kind} in ('access', 'correction', 'erasure', 'portability', 'information', 'objection')`,
    ),
    check("privacy_requests_channel_check", sql`${table.channel} in ('email', 'web_form', 'phone', 'letter', 'in_person', 'other')`),
    check("privacy_requests_sent_check", sql`${table.sent} is null or ${table.sent} in ('report', 'erasure', 'written')`),
    check(
      "privacy_requests_closed_check",
      sql`(${table.state} = 'open') = (${table.closedAt} is null) and (${table.state} = 'open') = (${table.sent} is null)`,
    ),
  ],
);

export type PrivacyRequestRow = typeof privacyRequests.$inferSelect;
