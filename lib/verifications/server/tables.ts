import { index, pgTable, real, text, timestamp, uuid } from "drizzle-orm/pg-core";

// Tables of this feature (drizzle-kit reads every lib/*/server/tables.ts: drizzle.config.ts). No `server-only`
// and no `@/` alias here: drizzle-kit loads schema files outside Next.

/*
 * The document's portrait crop, one per verification (lib/verifications/crop.ts): a box in fractions of the
 * document's front picture, drawn once by an analyst so the face comparison shows face beside face. Only
 * coordinates: no image, no address, no personal data. Who set it last, and when, for the trail's sake.
 */
export const documentCrops = pgTable(
  "document_crops",
  {
    publicId: text("public_id").primaryKey(),
    // The connection of the verification it was drawn on (issue 33): read and changed under that connection only.
    connectionId: text("connection_id").notNull().default("primary"),
    x: real("x").notNull(),
    y: real("y").notNull(),
    w: real("w").notNull(),
    h: real("h").notNull(),
    setBy: uuid("set_by"),
    setAt: timestamp("set_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [index("document_crops_set_at_idx").on(table.setAt)],
);
