import { boolean, index, pgTable, primaryKey, text, timestamp } from "drizzle-orm/pg-core";

// Tables of this feature (drizzle-kit reads every lib/*/server/schema.ts: drizzle.config.ts). No `server-only`
// and no `@/` alias here: drizzle-kit loads schema files outside Next.

/*
 * Search index of verifications by the caller's `ref_id` and by CPF (keyed hash, as the audit trail
 * keeps it): those created here and any an event or the sync names.
 */
export const verificationIndex = pgTable(
  "verification_index",
  {
    publicId: text("public_id").primaryKey(),
    refId: text("ref_id"),
    cpfHash: text("cpf_hash"),
    documentMasked: text("document_masked"),
    createdHere: boolean("created_here").notNull().default(false),
    updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [index("verification_index_ref_idx").on(table.refId), index("verification_index_cpf_idx").on(table.cpfHash)],
);
