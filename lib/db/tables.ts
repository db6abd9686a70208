import { bigserial, index, integer, jsonb, pgTable, primaryKey, text, timestamp } from "drizzle-orm/pg-core";

/*
 * The tables of the database layer itself (shared counters and job leases). Every feature keeps its own
 * tables in its `server/tables.ts`; drizzle-kit reads them all (drizzle.config.ts) and writes one migration
 * history in lib/db/migrations. No `server-only` import in any schema file: drizzle-kit loads them outside Next,
 * and without the `@/` alias, so schema files import each other by relative path.
 */

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

/*
 * Leases for work one instance does at a time (the case sync): taken with one conditional upsert, so
 * instances sharing a PostgreSQL never run it twice at once, and `last_started_at` spaces scheduled runs
 * (`last_finished_at` before a job's first run under migration 0021).
 */
export const jobLeases = pgTable("job_leases", {
  name: text("name").primaryKey(),
  holder: text("holder"),
  expiresAt: timestamp("expires_at", { withTimezone: true }).notNull(),
  lastFinishedAt: timestamp("last_finished_at", { withTimezone: true }),
  lastStartedAt: timestamp("last_started_at", { withTimezone: true }),
  // What the job keeps between runs (an incremental sync's cursor, the last full pass), written by the holder.
  state: jsonb("state").$type<Record<string, unknown>>().notNull().default({}),
});

/*
 * Calls to the service's APIs, counted per day, route (or job) and kind of work: the provider key's quota as a
 * budget admins can read (today, this week) and the bench reports. Each instance adds its counts with one
 * upsert per key, so several instances sum into one row.
 */
export const upstreamCalls = pgTable(
  "upstream_calls",
  {
    day: text("day").notNull(),
    // The connection whose key made the call (issue 33): each key has its own quota.
    connectionId: text("connection_id").notNull().default("primary"),
    // The dashboard route or job that made the call ("GET /api/verifications", "job:cases.sync").
    source: text("source").notNull(),
    // The upstream operation ("core.list_verifications", "partners.generate_jwt").
    kind: text("kind").notNull(),
    count: integer("count").notNull().default(0),
  },
  (table) => [primaryKey({ columns: [table.day, table.connectionId, table.source, table.kind] })],
);

/*
 * Live updates (GET /api/events/stream): each change pages should learn of is a row here, announced on the
 * `kyc_live` channel (PostgreSQL NOTIFY, in-process on PGlite), so every instance's open streams hear it; the
 * id is the stream's event id, so a reconnect resumes after the last one it saw. Rows are kept an hour. Topics
 * and ids only: no personal data.
 */
export const liveEvents = pgTable(
  "live_events",
  {
    id: bigserial("id", { mode: "number" }).primaryKey(),
    topic: text("topic").notNull(),
    payload: jsonb("payload").$type<Record<string, unknown>>().notNull().default({}),
    // The member it is for (a notification), or null for everyone allowed to read the topic.
    userId: text("user_id"),
    // The connection whose records it is about (lib/connections), or null for none (a member's notification).
    connectionId: text("connection_id"),
    at: timestamp("at", { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [index("live_events_at_idx").on(table.at)],
);
