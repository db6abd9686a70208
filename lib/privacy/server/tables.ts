import { sql } from "drizzle-orm";
import { check, index, jsonb, pgTable, text, timestamp, uuid } from "drizzle-orm/pg-core";

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
