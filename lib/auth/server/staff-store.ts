import "server-only";

import { and, asc, eq, gt, ne, sql } from "drizzle-orm";

import { type RoleRef } from "@/lib/auth/roles";
import type { StaffUserDto } from "@/lib/auth/types";
import { config } from "@/lib/config";
import type { Database } from "@/lib/db/client";
import { AppError } from "@/lib/shared/errors";

import { keepingGuardedHolders } from "./staff-access";
import { roleColumns } from "./staff-roles";
import { staffRoles, staffUsers } from "./tables";

/*
 * Staff queries. Everything leaving this module is a DTO: the password hash never does, except through
 * `getStaffCredentials`, which only the sign-in check uses.
 */

// Typed errors: the route kit's one mapper answers them (404, 409 naming the field) without a catch per route.

export class StaffNotFoundError extends AppError {
  constructor() {
    super("not_found");
    this.name = "StaffNotFoundError";
  }
}

export class StaffEmailTakenError extends AppError {
  constructor() {
    super("conflict", "A staff account with this email already exists.", { fields: ["email"] });
    this.name = "StaffEmailTakenError";
  }
}

export class LastAdminError extends AppError {
  constructor() {
    super("conflict", "The last active admin can be neither demoted nor disabled.");
    this.name = "LastAdminError";
  }
}

const dtoColumns = {
  id: staffUsers.id,
  email: staffUsers.email,
  name: staffUsers.name,
  // As the API names it: the built-in name, or the custom role's id.
  role: sql<string>`coalesce(${staffUsers.customRoleId}::text, ${staffUsers.role})`,
  customRoleName: sql<string | null>`(select ${staffRoles.name} from ${staffRoles} where ${staffRoles.id} = ${staffUsers.customRoleId})`,
  disabled: staffUsers.disabled,
  away: staffUsers.away,
  mustChangePassword: staffUsers.mustChangePassword,
  hasPassword: sql<boolean>`${staffUsers.passwordHash} is not null`,
  oidcLinked: sql<boolean>`${staffUsers.oidcSubject} is not null`,
  ssoOnly: staffUsers.ssoOnly,
  lastSignInAt: staffUsers.lastSignInAt,
  createdAt: staffUsers.createdAt,
  updatedAt: staffUsers.updatedAt,
};

type DtoRow = Omit<StaffUserDto, "lastSignInAt" | "createdAt" | "updatedAt"> & {
  lastSignInAt: Date | null;
  createdAt: Date;
  updatedAt: Date;
};

function toDto(row: DtoRow): StaffUserDto {
  return {
    ...row,
    // Both drivers hand back booleans for `is not null`; Boolean() keeps the DTO honest if one does not.
    hasPassword: Boolean(row.hasPassword),
    oidcLinked: Boolean(row.oidcLinked),
    lastSignInAt: row.lastSignInAt?.toISOString() ?? null,
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
  };
}

/** Postgres error code of a failed query, through drizzle's wrapper (`cause`) when there is one. */
export function pgErrorCode(error: unknown): string | undefined {
  for (let current = error, depth = 0; current && depth < 3; depth += 1) {
    const code = (current as { code?: unknown }).code;
    if (typeof code === "string") return code;
    current = (current as { cause?: unknown }).cause;
  }
  return undefined;
}

export async function listStaff(db: Database): Promise<StaffUserDto[]> {
  const rows = await db.select(dtoColumns).from(staffUsers).orderBy(asc(staffUsers.email));
  return rows.map(toDto);
}

export async function getStaff(db: Database, id: string): Promise<StaffUserDto | null> {
  const [row] = await db.select(dtoColumns).from(staffUsers).where(eq(staffUsers.id, id));
  return row ? toDto(row) : null;
}

export async function getStaffByEmail(db: Database, email: string): Promise<StaffUserDto | null> {
  const [row] = await db
    .select(dtoColumns)
    .from(staffUsers)
    .where(eq(sql`lower(${staffUsers.email})`, email.trim().toLowerCase()));
  return row ? toDto(row) : null;
}

/** For the password check only: the one query that reads the hash. */
export async function getStaffCredentials(
  db: Database,
  email: string,
): Promise<{
  id: string;
  email: string;
  name: string;
  role: RoleRef;
  disabled: boolean;
  passwordHash: string | null;
  passwordExpiresAt: Date | null;
  mustChangePassword: boolean;
  ssoOnly: boolean;
} | null> {
  const [row] = await db
    .select({
      id: staffUsers.id,
      email: staffUsers.email,
      name: staffUsers.name,
      role: staffUsers.role,
      disabled: staffUsers.disabled,
      passwordHash: staffUsers.passwordHash,
      passwordExpiresAt: staffUsers.passwordExpiresAt,
      mustChangePassword: staffUsers.mustChangePassword,
      ssoOnly: staffUsers.ssoOnly,
    })
    .from(staffUsers)
    .where(eq(sql`lower(${staffUsers.email})`, email.trim().toLowerCase()));
  return row ?? null;
}

export async function getPasswordHash(db: Database, id: string): Promise<string | null> {
  const [row] = await db.select({ passwordHash: staffUsers.passwordHash }).from(staffUsers).where(eq(staffUsers.id, id));
  return row?.passwordHash ?? null;
}

export async function createStaff(
  db: Database,
  input: {
    email: string;
    name: string;
    role: RoleRef;
    passwordHash: string | null;
    mustChangePassword: boolean;
    /** The member who made the account (null: the CLI, the seed); they also gave it its role. */
    createdBy?: string | null;
  },
): Promise<StaffUserDto> {
  const role = await roleColumns(db, input.role);
  try {
    const [row] = await db
      .insert(staffUsers)
      .values({
        ...input,
        ...role,
        createdBy: input.createdBy ?? null,
        roleGivenBy: input.createdBy ?? null,
        email: input.email.trim().toLowerCase(),
        passwordExpiresAt: input.mustChangePassword && input.passwordHash ? oneTimePasswordExpiry(new Date()) : null,
      })
      .returning(dtoColumns);
    if (!row) throw new Error("staff member was not created");
    return toDto(row);
  } catch (error) {
    if (pgErrorCode(error) === "23505") throw new StaffEmailTakenError();
    throw error;
  }
}

/**
 * Changes role and/or disabled flag. Refuses (LastAdminError) when the change would leave no active
 * admin, and (LastHolderError) no active holder of roles.manage or staff.manage; the checks and the update
 * happen under one lock in one transaction. `by` (the member making the change) is kept as who last gave the
 * account its role or re-enabled it.
 */
export async function updateStaff(
  db: Database,
  id: string,
  change: { role?: RoleRef; disabled?: boolean; ssoOnly?: boolean },
  now = new Date(),
  by: string | null = null,
): Promise<{ before: StaffUserDto; after: StaffUserDto }> {
  return db.transaction((tx) => keepingGuardedHolders(tx, () => applyStaffChange(tx, id, change, now, by)));
}

async function applyStaffChange(
  tx: Database,
  id: string,
  change: { role?: RoleRef; disabled?: boolean; ssoOnly?: boolean },
  now: Date,
  by: string | null,
): Promise<{ before: StaffUserDto; after: StaffUserDto }> {
  const [current] = await tx.select(dtoColumns).from(staffUsers).where(eq(staffUsers.id, id));
  if (!current) throw new StaffNotFoundError();
  const before = toDto(current);
  const losesAdmin =
    before.role === "admin" && !before.disabled && ((change.role !== undefined && change.role !== "admin") || change.disabled === true);
  if (losesAdmin) {
    const [others] = await tx
      .select({ count: sql<number>`count(*)::int` })
      .from(staffUsers)
      .where(and(eq(staffUsers.role, "admin"), eq(staffUsers.disabled, false), ne(staffUsers.id, id)));
    if (!others || Number(others.count) === 0) throw new LastAdminError();
  }
  const role = change.role === undefined ? {} : await roleColumns(tx, change.role);
  const newRole = change.role !== undefined && change.role !== before.role;
  const reEnabled = change.disabled === false && before.disabled;
  const [updated] = await tx
    .update(staffUsers)
    .set({
      ...role,
      ...(newRole ? { roleGivenAt: now, roleGivenBy: by } : {}),
      ...(reEnabled ? { enabledAt: now, enabledBy: by } : {}),
      ...(change.disabled === undefined ? {} : { disabled: change.disabled }),
      ...(change.ssoOnly === undefined ? {} : { ssoOnly: change.ssoOnly }),
      updatedAt: now,
    })
    .where(eq(staffUsers.id, id))
    .returning(dtoColumns);
  if (!updated) throw new StaffNotFoundError();
  return { before, after: toDto(updated) };
}

export async function setPassword(
  db: Database,
  id: string,
  passwordHash: string,
  { mustChangePassword }: { mustChangePassword: boolean },
  now = new Date(),
): Promise<void> {
  await db
    .update(staffUsers)
    .set({ passwordHash, mustChangePassword, passwordExpiresAt: mustChangePassword ? oneTimePasswordExpiry(now) : null, updatedAt: now })
    .where(eq(staffUsers.id, id));
}

/** When a one-time password issued now stops working (ONE_TIME_PASSWORD_HOURS). */
export function oneTimePasswordExpiry(now: Date): Date {
  return new Date(now.getTime() + config().signIn.oneTimePasswordHours * 3_600_000);
}

/**
 * Spends a one-time password at its first sign-in: it expires now, in one conditional update, so of two
 * sign-ins racing with it only one gets through. False when it was already spent or had expired.
 */
export async function spendOneTimePassword(db: Database, id: string, now = new Date()): Promise<boolean> {
  const spent = await db
    .update(staffUsers)
    .set({ passwordExpiresAt: now })
    .where(and(eq(staffUsers.id, id), eq(staffUsers.mustChangePassword, true), gt(staffUsers.passwordExpiresAt, now)))
    .returning({ id: staffUsers.id });
  return spent.length > 0;
}
