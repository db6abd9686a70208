import { sql } from "drizzle-orm";
import { boolean, check, index, pgTable, text, timestamp, uniqueIndex, uuid, type AnyPgColumn } from "drizzle-orm/pg-core";

import { BUILT_IN_ROLES } from "../permissions";

// Tables of this feature (drizzle-kit reads every lib/*/server/schema.ts: drizzle.config.ts). No `server-only`
// and no `@/` alias here: drizzle-kit loads schema files outside Next.

const createdAt = () => timestamp("created_at", { withTimezone: true }).notNull().defaultNow();

/** `staff_users.role`: a built-in role, or `custom` with `custom_role_id` naming the role. */
export const STAFF_ROLE_VALUES = [...BUILT_IN_ROLES, "custom"] as const;

/*
 * Custom roles: a name and a set of permissions (catalogue names, lib/auth/permissions.ts), made by members
 * holding `roles.manage`. Built-in roles are not rows: they live in code and cannot be edited. A role is
 * retired (retired_at), never deleted, so the audit trail's references stay readable; a role some member
 * still holds cannot be retired. Every change announces itself on the session-change channel ('r:<id>'),
 * so the members holding it get the new permissions on their next request on every instance.
 */
export const staffRoles = pgTable(
  "staff_roles",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    name: text("name").notNull(),
    permissions: text("permissions").array().notNull().default(sql`'{}'::text[]`),
    createdAt: createdAt(),
    updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
    retiredAt: timestamp("retired_at", { withTimezone: true }),
  },
  // Two live roles never share a name; a retired role's name may be used again.
  (table) => [uniqueIndex("staff_roles_name_lower_key").on(sql`lower(${table.name})`).where(sql`${table.retiredAt} is null`)],
);

export const staffUsers = pgTable(
  "staff_users",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    // Stored lower-cased by the application; the unique index on lower(email) is the real guarantee.
    email: text("email").notNull(),
    name: text("name").notNull().default(""),
    role: text("role", { enum: STAFF_ROLE_VALUES }).notNull(),
    // Set exactly when `role` is `custom`; a role a member holds cannot be deleted (nor retired, by the app).
    customRoleId: uuid("custom_role_id").references((): AnyPgColumn => staffRoles.id, { onDelete: "restrict" }),
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
    check("staff_users_role_check", sql`${table.role} in ('viewer', 'analyst', 'reviewer', 'auditor', 'admin', 'custom')`),
    check("staff_users_custom_role_check", sql`(${table.role} = 'custom') = (${table.customRoleId} is not null)`),
    index("staff_users_custom_role_idx").on(table.customRoleId),
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

export type StaffRoleRow = typeof staffRoles.$inferSelect;

export type StaffUserRow = typeof staffUsers.$inferSelect;

export type StaffSessionRow = typeof staffSessions.$inferSelect;
