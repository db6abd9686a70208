import { sql } from "drizzle-orm";
import { boolean, check, index, pgTable, text, timestamp, uniqueIndex, uuid } from "drizzle-orm/pg-core";

import { ROLES } from "../roles";

// Tables of this feature (drizzle-kit reads every lib/*/server/schema.ts: drizzle.config.ts). No `server-only`
// and no `@/` alias here: drizzle-kit loads schema files outside Next.

const createdAt = () => timestamp("created_at", { withTimezone: true }).notNull().defaultNow();

export const staffUsers = pgTable(
  "staff_users",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    // Stored lower-cased by the application; the unique index on lower(email) is the real guarantee.
    email: text("email").notNull(),
    name: text("name").notNull().default(""),
    role: text("role", { enum: ROLES }).notNull(),
    // scrypt hash string (lib/auth/server/password.ts); null for accounts that only sign in through OIDC.
    passwordHash: text("password_hash"),
    // The identity provider's `sub`, bound on the first OIDC sign-in of an existing staff account.
    oidcSubject: text("oidc_subject"),
    disabled: boolean("disabled").notNull().default(false),
    // Invited accounts sign in with a one-time password and must choose their own before anything else.
    mustChangePassword: boolean("must_change_password").notNull().default(false),
    lastSignInAt: timestamp("last_sign_in_at", { withTimezone: true }),
    createdAt: createdAt(),
    updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [
    uniqueIndex("staff_users_email_lower_key").on(sql`lower(${table.email})`),
    uniqueIndex("staff_users_oidc_subject_key").on(table.oidcSubject),
    check("staff_users_role_check", sql`${table.role} in ('analyst', 'admin')`),
  ],
);

/*
 * Server-side record of each signed-in session. The JWT cookie only carries this row's id: signing
 * out revokes the row, so a copied cookie stops working, and idle/absolute timeouts are checked here.
 */
export const staffSessions = pgTable(
  "staff_sessions",
  {
    id: text("id").primaryKey(),
    userId: uuid("user_id")
      .notNull()
      .references(() => staffUsers.id, { onDelete: "cascade" }),
    method: text("method", { enum: ["password", "oidc"] }).notNull(),
    createdAt: createdAt(),
    lastSeenAt: timestamp("last_seen_at", { withTimezone: true }).notNull().defaultNow(),
    revokedAt: timestamp("revoked_at", { withTimezone: true }),
  },
  (table) => [index("staff_sessions_user_idx").on(table.userId)],
);

export type StaffUserRow = typeof staffUsers.$inferSelect;

export type StaffSessionRow = typeof staffSessions.$inferSelect;
