import { bigint, pgTable, text, timestamp, uuid } from "drizzle-orm/pg-core";

import { staffUsers } from "@/lib/auth/server/tables";

// Tables of this feature (drizzle-kit reads every lib/*/server/tables.ts: drizzle.config.ts). No `server-only`
// and no `@/` alias here: drizzle-kit loads schema files outside Next.

const createdAt = () => timestamp("created_at", { withTimezone: true }).notNull().defaultNow();

/*
 * Integration keys created from the dashboard: metadata as the upstream returned it. The key value
 * (the upstream `uuid`) is never stored: it is shown once and kept only in a sealed cookie.
 */
export const integrationKeys = pgTable("integration_keys", {
  id: uuid("id").primaryKey().defaultRandom(),
  upstreamId: bigint("upstream_id", { mode: "number" }).notNull().unique(),
  label: text("label").notNull(),
  // As returned by the upstream (a host without scheme).
  domain: text("domain").notNull(),
  ownerUserId: bigint("owner_user_id", { mode: "number" }),
  ownerTenantId: bigint("owner_tenant_id", { mode: "number" }),
  upstreamCreatedAt: timestamp("upstream_created_at", { withTimezone: true }),
  createdBy: uuid("created_by").references(() => staffUsers.id),
  createdAt: createdAt(),
});

export type IntegrationKeyRow = typeof integrationKeys.$inferSelect;
