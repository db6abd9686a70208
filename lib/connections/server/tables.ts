import { sql } from "drizzle-orm";
import { boolean, integer, jsonb, pgTable, primaryKey, text, timestamp, uuid } from "drizzle-orm/pg-core";

import { staffUsers } from "@/lib/auth/server/tables";
import type { ConnectionFlow } from "@/lib/connections/flows";

// The connections' tables (migrations 0022, 0026). No `server-only` here: drizzle-kit loads schema files outside Next.

/** What a connection's key was last seen able to do (lib/connections/server/probe.ts); null: not yet known. */
export interface StoredCapabilities {
  read: boolean | null;
  media: boolean | null;
  unmasked: boolean | null;
  /** The service's environment and integration as its answer showed them, when it did. */
  reportedEnvironment?: string | null;
  reportedIntegration?: string | null;
  /** Why the last test failed (a problem's code, never the service's text), null when it passed. */
  problem?: string | null;
}

export const connections = pgTable("connections", {
  id: text("id").primaryKey(),
  name: text("name").notNull(),
  environment: text("environment").$type<"sandbox" | "production">().notNull(),
  integration: text("integration"),
  // The core API key and the partners account (JSON), sealed under the data key ring (./secrets.ts).
  coreKeySealed: text("core_key_sealed").notNull(),
  coreKeyHint: text("core_key_hint").notNull(),
  // The key's life (migration 0029): its expiry as the admin stated it, else the provider's default validity from when
  // it was added (`coreKeyExpiryStated` false); null when unknown (a key not in the provider's lz_ format, not stated).
  coreKeyExpiresAt: timestamp("core_key_expires_at", { withTimezone: true }),
  coreKeyExpiryStated: boolean("core_key_expiry_stated").notNull().default(false),
  // After a rotation: the previous key's hint and the end of its grace period at the provider.
  previousKeyHint: text("previous_key_hint"),
  previousKeyUntil: timestamp("previous_key_until", { withTimezone: true }),
  // The service's flows the admin named (migration 0030), in the creation dialog's order: the first is the default.
  flows: jsonb("flows").$type<ConnectionFlow[]>().notNull().default([]),
  partnersSealed: text("partners_sealed"),
  capabilities: jsonb("capabilities").$type<StoredCapabilities>(),
  testedAt: timestamp("tested_at", { withTimezone: true }),
  // "environment" (seeded from CORE_API_KEY and PARTNERS_* at start-up) or "sandbox" (the sandbox's own keys).
  seededFrom: text("seeded_from"),
  position: integer("position").notNull().default(0),
  // Bumped on every change of a secret: each instance's clients are cached per id and version.
  version: integer("version").notNull().default(1),
  createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
  retiredAt: timestamp("retired_at", { withTimezone: true }),
});

export type ConnectionRow = typeof connections.$inferSelect;

/*
 * Which connections a member may use (lib/connections/server/access.ts): none listed, every one with the role's
 * permissions; else those listed, each less the permissions it withholds.
 */
export const staffConnectionAccess = pgTable(
  "staff_connection_access",
  {
    staffId: uuid("staff_id")
      .notNull()
      .references(() => staffUsers.id, { onDelete: "cascade" }),
    connectionId: text("connection_id")
      .notNull()
      .references(() => connections.id, { onDelete: "cascade" }),
    withheld: text("withheld")
      .array()
      .notNull()
      .default(sql`'{}'::text[]`),
    updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [primaryKey({ columns: [table.staffId, table.connectionId] })],
);
