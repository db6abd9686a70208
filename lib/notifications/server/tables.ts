import { sql } from "drizzle-orm";
import { bigint, bigserial, index, integer, pgTable, primaryKey, text, timestamp, uniqueIndex, uuid } from "drizzle-orm/pg-core";

import { staffUserId, staffUsers } from "@/lib/auth/server/tables";
import { NOTIFICATION_KINDS } from "@/lib/notifications/types";

// Tables of this feature (drizzle-kit reads every lib/*/server/tables.ts: drizzle.config.ts). No `server-only`
// and no `@/` alias here: drizzle-kit loads schema files outside Next.

/*
 * Notifications (issue 23): in the app (the bell), one row per member and thing to tell, made once (the
 * unique key: a kind, a case, and what makes it distinct, e.g. the note mentioning them), never holding
 * personal data: a kind, the case's public id, who acted. Sent out by email and chat through the outbox.
 */
export const notifications = pgTable(
  "notifications",
  {
    id: bigserial("id", { mode: "number" }).primaryKey(),
    userId: staffUserId(),
    kind: text("kind", { enum: NOTIFICATION_KINDS }).notNull(),
    casePublicId: text("case_public_id").notNull(),
    // What makes two notifications of one kind and case different (a note's id for a mention); "" otherwise.
    dedupeKey: text("dedupe_key").notNull().default(""),
    // The case's ref_id when known (the caller's reference, not personal data), to name the case by it.
    caseRef: text("case_ref"),
    // A page of its own (a digest's filtered queue); null: the case's page (notificationPath).
    link: text("link"),
    // The connection of the case told of (issue 33): told only to members who may use it, linked under it. Null for a
    // member's own account notices (ACCOUNT_NOTIFICATION_KINDS), which concern no connection.
    connectionId: text("connection_id"),
    actorId: uuid("actor_id").references(() => staffUsers.id, { onDelete: "set null" }),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    readAt: timestamp("read_at", { withTimezone: true }),
  },
  (table) => [
    uniqueIndex("notifications_once_key").on(table.userId, table.kind, table.casePublicId, table.dedupeKey),
    index("notifications_user_idx").on(table.userId, table.id),
    index("notifications_case_unread_idx")
      .on(table.casePublicId)
      .where(sql`read_at is null`),
  ],
);

/*
 * The cases a digest covers (issue 32), one row each; `handled_at` is set when the case is handled for the
 * digest's member (lib/notifications/server/handled.ts): the digest counts the rows left and is read with none.
 */
export const notificationCases = pgTable(
  "notification_cases",
  {
    notificationId: bigint("notification_id", { mode: "number" })
      .notNull()
      .references(() => notifications.id, { onDelete: "cascade" }),
    casePublicId: text("case_public_id").notNull(),
    handledAt: timestamp("handled_at", { withTimezone: true }),
  },
  (table) => [
    primaryKey({ columns: [table.notificationId, table.casePublicId] }),
    index("notification_cases_case_idx")
      .on(table.casePublicId)
      .where(sql`handled_at is null`),
  ],
);

/*
 * Messages to send out (email over SMTP_URL, a Slack-compatible chat webhook), one row each, taken by one
 * instance at a time and retried with backoff; the text holds the case id and a link, nothing personal.
 */
export const notificationOutbox = pgTable(
  "notification_outbox",
  {
    id: bigserial("id", { mode: "number" }).primaryKey(),
    channel: text("channel", { enum: ["email", "chat"] }).notNull(),
    recipient: text("recipient"),
    subject: text("subject").notNull(),
    body: text("body").notNull(),
    attempts: integer("attempts").notNull().default(0),
    nextAttemptAt: timestamp("next_attempt_at", { withTimezone: true }).notNull().defaultNow(),
    lockedUntil: timestamp("locked_until", { withTimezone: true }),
    sentAt: timestamp("sent_at", { withTimezone: true }),
    lastError: text("last_error"),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [index("notification_outbox_due_idx").on(table.sentAt, table.nextAttemptAt)],
);
