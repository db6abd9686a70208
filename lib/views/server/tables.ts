import { sql } from "drizzle-orm";
import { pgTable, text, timestamp, uniqueIndex, uuid } from "drizzle-orm/pg-core";

import { staffUserId } from "@/lib/auth/server/tables";

// Tables of this feature (drizzle-kit reads every lib/*/server/tables.ts: drizzle.config.ts). No `server-only`
// and no `@/` alias here: drizzle-kit loads schema files outside Next.

/** Saved views ("favourite inboxes"): a member's named filters of the verification list or the case queue. */
export const savedViews = pgTable(
  "saved_views",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    userId: staffUserId(),
    // The connection whose list or queue it filters (issue 33): listed under that connection only.
    connectionId: text("connection_id").notNull().default("primary"),
    scope: text("scope", { enum: ["verifications", "cases"] }).notNull(),
    name: text("name").notNull(),
    // The list's or queue's own query string (its filters and sort), as its page reads it.
    query: text("query").notNull(),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [uniqueIndex("saved_views_name_key").on(table.userId, table.connectionId, table.scope, sql`lower(${table.name})`)],
);
