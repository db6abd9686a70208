import { sql } from "drizzle-orm";
import { bigint, check, pgTable, text, timestamp, uuid } from "drizzle-orm/pg-core";

import { staffUsers } from "@/lib/auth/server/tables";

// Tables of this feature (drizzle-kit reads every lib/*/server/tables.ts: drizzle.config.ts). No `server-only`
// and no `@/` alias here: drizzle-kit loads schema files outside Next.

const createdAt = () => timestamp("created_at", { withTimezone: true }).notNull().defaultNow();

/*
 * Integration keys created from the dashboard: metadata as the upstream returned it. The key value
 * (the upstream `uuid`) is never stored: it is shown once and kept only in a sealed cookie.
 *
 * A key retired here (`retired_at`, `retired_by`, `retire_reason`) is only marked: the contract has no operation
 * that revokes a key, so it stays valid at the service until an admin revokes it in the provider's own dashboard
 * (docs/assumptions.md#integration-key-retire). Retired, never deleted.
 */
export const integrationKeys = pgTable(
  "integration_keys",
  {
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
    retiredAt: timestamp("retired_at", { withTimezone: true }),
    retiredBy: uuid("retired_by").references(() => staffUsers.id),
    retireReason: text("retire_reason"),
  },
  (table) => [check("integration_keys_retired_check", sql`(${table.retiredAt} is null) = (${table.retireReason} is null)`)],
);

export type IntegrationKeyRow = typeof integrationKeys.$inferSelect;
