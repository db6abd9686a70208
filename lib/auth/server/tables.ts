import { sql } from "drizzle-orm";
import { bigint, boolean, check, index, integer, pgTable, text, timestamp, uniqueIndex, uuid, type AnyPgColumn } from "drizzle-orm/pg-core";

import { BUILT_IN_ROLES } from "@/lib/auth/permissions";

// Tables of this feature (drizzle-kit reads every lib/*/server/tables.ts: drizzle.config.ts). No `server-only`
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
    permissions: text("permissions")
      .array()
      .notNull()
      .default(sql`'{}'::text[]`),
    createdAt: createdAt(),
    updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
    retiredAt: timestamp("retired_at", { withTimezone: true }),
  },
  // Two live roles never share a name; a retired role's name may be used again.
  (table) => [
    uniqueIndex("staff_roles_name_lower_key")
      .on(sql`lower(${table.name})`)
      .where(sql`${table.retiredAt} is null`),
  ],
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
    // When the password stops working: set for a one-time password (ONE_TIME_PASSWORD_HOURS), and set to the
    // moment of its first sign-in, so it works once. Null for a password the member chose.
    passwordExpiresAt: timestamp("password_expires_at", { withTimezone: true }),
    // Signs in through single sign-on only: the password form refuses this member whatever the password.
    ssoOnly: boolean("sso_only").notNull().default(false),
    // Away (time off): auto-assignment skips the member and gives their open cases back to their queues.
    away: boolean("away").notNull().default(false),
    lastSignInAt: timestamp("last_sign_in_at", { withTimezone: true }),
    createdAt: createdAt(),
    updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
    // Who gave the account its access, and when (four eyes between people who predate the request,
    // lib/auth/server/staff-store.ts `accessGivenBy`): its creator (null: the CLI, the seed), who last re-enabled
    // it, who last gave it its current role (at creation: its creator).
    createdBy: uuid("created_by").references((): AnyPgColumn => staffUsers.id, { onDelete: "set null" }),
    enabledAt: timestamp("enabled_at", { withTimezone: true }),
    enabledBy: uuid("enabled_by").references((): AnyPgColumn => staffUsers.id, { onDelete: "set null" }),
    roleGivenAt: timestamp("role_given_at", { withTimezone: true }).notNull().defaultNow(),
    roleGivenBy: uuid("role_given_by").references((): AnyPgColumn => staffUsers.id, { onDelete: "set null" }),
  },
  (table) => [
    uniqueIndex("staff_users_email_lower_key").on(sql`lower(${table.email})`),
    uniqueIndex("staff_users_oidc_subject_key").on(table.oidcSubject),
    check("staff_users_role_check", sql`${table.role} in ('viewer', 'analyst', 'reviewer', 'auditor', 'admin', 'custom')`),
    check("staff_users_custom_role_check", sql`(${table.role} = 'custom') = (${table.customRoleId} is not null)`),
    index("staff_users_custom_role_idx").on(table.customRoleId),
  ],
);

/** The member a row belongs to (`user_id`): the row goes with their account. */
export const staffUserId = () =>
  uuid("user_id")
    .notNull()
    .references(() => staffUsers.id, { onDelete: "cascade" });

/*
 * Server-side record of each signed-in session. The JWT cookie only carries this row's id: signing
 * out revokes the row, so a copied cookie stops working, and idle/absolute timeouts are checked here.
 */
export const staffSessions = pgTable(
  "staff_sessions",
  {
    // The secret the session cookie carries: never shown, not even to its member.
    id: text("id").primaryKey(),
    // How the session is named in the sessions lists and their routes.
    publicId: uuid("public_id").notNull().defaultRandom(),
    userId: staffUserId(),
    method: text("method", { enum: ["password", "oidc", "passkey"] }).notNull(),
    createdAt: createdAt(),
    // The member's last action (idle timeout): background polling and image-token refreshes do not count.
    lastSeenAt: timestamp("last_seen_at", { withTimezone: true }).notNull().defaultNow(),
    revokedAt: timestamp("revoked_at", { withTimezone: true }),
    // What the sign-in still awaits before the session may do anything: a second factor after the password,
    // or the enrolment of one (MFA_REQUIRED). Null: complete.
    pending: text("pending", { enum: ["second_factor", "enrolment"] }),
    // When a second factor was last verified in this session (the sign-in's, or a step-up).
    secondFactorAt: timestamp("second_factor_at", { withTimezone: true }),
    // For the member's list of sessions: the browser and the address it started from.
    userAgent: text("user_agent"),
    ip: text("ip"),
  },
  (table) => [index("staff_sessions_user_idx").on(table.userId), uniqueIndex("staff_sessions_public_id_key").on(table.publicId)],
);

/*
 * Second factors: authenticator apps (TOTP, RFC 6238) and passkeys (WebAuthn), several per member, each
 * with a label. A TOTP factor counts once confirmed with a first code; its secret is stored encrypted
 * (lib/auth/server/factor-secret.ts) and `last_step` makes every code work once. A passkey stores its
 * credential's public key and signature counter only.
 */
export const staffFactors = pgTable(
  "staff_factors",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    userId: staffUserId(),
    kind: text("kind", { enum: ["totp", "passkey"] }).notNull(),
    label: text("label").notNull(),
    totpSecret: text("totp_secret"),
    lastStep: bigint("last_step", { mode: "number" }),
    credentialId: text("credential_id"),
    publicKey: text("public_key"),
    signCount: bigint("sign_count", { mode: "number" }),
    transports: text("transports").array(),
    confirmedAt: timestamp("confirmed_at", { withTimezone: true }),
    lastUsedAt: timestamp("last_used_at", { withTimezone: true }),
    createdAt: createdAt(),
  },
  (table) => [
    index("staff_factors_user_idx").on(table.userId),
    uniqueIndex("staff_factors_credential_key").on(table.credentialId),
    check(
      "staff_factors_kind_check",
      sql`(${table.kind} = 'totp' and ${table.totpSecret} is not null) or (${table.kind} = 'passkey' and ${table.credentialId} is not null and ${table.publicKey} is not null)`,
    ),
  ],
);

/** Ten single-use recovery codes per member, made at the first enrolment; only their keyed hashes are kept. */
export const staffRecoveryCodes = pgTable(
  "staff_recovery_codes",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    userId: staffUserId(),
    codeHash: text("code_hash").notNull(),
    usedAt: timestamp("used_at", { withTimezone: true }),
    createdAt: createdAt(),
  },
  (table) => [uniqueIndex("staff_recovery_codes_hash_key").on(table.userId, table.codeHash)],
);

/**
 * WebAuthn challenges between the options the browser is given and its answer: shared by every instance,
 * taken (deleted) exactly once, and short-lived.
 */
export const authChallenges = pgTable(
  "auth_challenges",
  {
    id: text("id").primaryKey(),
    purpose: text("purpose", { enum: ["passkey_register", "passkey_sign_in", "step_up"] }).notNull(),
    challenge: text("challenge").notNull(),
    userId: uuid("user_id").references(() => staffUsers.id, { onDelete: "cascade" }),
    sessionId: text("session_id"),
    attempts: integer("attempts").notNull().default(0),
    expiresAt: timestamp("expires_at", { withTimezone: true }).notNull(),
  },
  (table) => [index("auth_challenges_expires_idx").on(table.expiresAt)],
);

export type StaffRoleRow = typeof staffRoles.$inferSelect;

export type StaffUserRow = typeof staffUsers.$inferSelect;

export type StaffSessionRow = typeof staffSessions.$inferSelect;

export type StaffFactorRow = typeof staffFactors.$inferSelect;
