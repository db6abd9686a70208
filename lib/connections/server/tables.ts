import { integer, jsonb, pgTable, text, timestamp } from "drizzle-orm/pg-core";

// The connections' table (migration 0022). No `server-only` and no `@/` alias here: drizzle-kit loads schema files
// outside Next.

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
