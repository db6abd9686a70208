import { date, index, pgTable, primaryKey, text, timestamp } from "drizzle-orm/pg-core";

/*
 * The overview's status mirror (migration 0035, lib/overview/server/mirror.ts): per connection, what the service's list
 * shows for the days the overview has read, by id, status, flow, journey and dates (no personal data), and which days
 * were read whole, when.
 */
export const verificationMirror = pgTable(
  "verification_mirror",
  {
    connectionId: text("connection_id").notNull(),
    publicId: text("public_id").notNull(),
    status: text("status").notNull(),
    flow: text("flow"),
    journey: text("journey"),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull(),
    decidedAt: timestamp("decided_at", { withTimezone: true }),
    seenAt: timestamp("seen_at", { withTimezone: true }).notNull(),
  },
  (table) => [
    primaryKey({ columns: [table.connectionId, table.publicId] }),
    index("verification_mirror_created_idx").on(table.connectionId, table.createdAt),
  ],
);

export const verificationMirrorDays = pgTable(
  "verification_mirror_days",
  {
    connectionId: text("connection_id").notNull(),
    day: date("day").notNull(),
    readAt: timestamp("read_at", { withTimezone: true }).notNull(),
  },
  (table) => [primaryKey({ columns: [table.connectionId, table.day] })],
);
