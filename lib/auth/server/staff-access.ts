import "server-only";

import { and, eq, inArray, sql } from "drizzle-orm";

import { GUARDED_PERMISSIONS, resolvePermissions, type Permission } from "@/lib/auth/permissions";
import { staffRoles, staffUsers } from "@/lib/auth/server/tables";
import type { Database } from "@/lib/db/client";
import { AppError } from "@/lib/shared/errors";

/* Who holds what among staff: the lock that orders access changes, and the guard that keeps a holder of each guarded permission. */

// Arbitrary constant: serialises role/disabled changes and role edits so two admins demoting each other at the
// same moment cannot both succeed and leave nobody in charge.
const STAFF_ADMIN_LOCK_KEY = 724_190_003;

/** Takes the staff-access lock for this transaction: who holds what changes one change at a time. */
export async function lockStaffAccess(tx: Database): Promise<void> {
  await tx.execute(sql`select pg_advisory_xact_lock(${STAFF_ADMIN_LOCK_KEY})`);
}

/** 409: the change would leave no active member holding roles.manage or staff.manage (named). */
export class LastHolderError extends AppError {
  constructor(readonly permission: Permission) {
    super("last_holder", `This would leave no active member holding ${permission}: give it to someone else first.`);
    this.name = "LastHolderError";
  }
}

/**
 * Each staff account's resolved permissions (all of them, or those named): the delegation checks and the
 * notifications' recipients (lib/notifications/server/notify.ts membersHolding) read these.
 */
export async function staffAccess(
  db: Database,
  ids?: readonly string[],
): Promise<Array<{ id: string; email: string; name: string; disabled: boolean; permissions: Permission[] }>> {
  if (ids && ids.length === 0) return [];
  const rows = await db
    .select({
      id: staffUsers.id,
      email: staffUsers.email,
      name: staffUsers.name,
      disabled: staffUsers.disabled,
      role: staffUsers.role,
      customPermissions: staffRoles.permissions,
      customRetiredAt: staffRoles.retiredAt,
    })
    .from(staffUsers)
    .leftJoin(staffRoles, eq(staffRoles.id, staffUsers.customRoleId))
    .where(ids ? inArray(staffUsers.id, [...ids]) : undefined);
  return rows.map((row) => ({
    id: row.id,
    email: row.email,
    name: row.name,
    disabled: row.disabled,
    permissions: resolvePermissions(
      row.role,
      row.customPermissions ? { permissions: row.customPermissions, retiredAt: row.customRetiredAt } : null,
    ),
  }));
}

/** How many active members hold each guarded permission. */
async function guardedHolders(db: Database): Promise<Map<Permission, number>> {
  const active = (await staffAccess(db)).filter((member) => !member.disabled);
  return new Map(
    GUARDED_PERMISSIONS.map((permission) => [permission, active.filter((member) => member.permissions.includes(permission)).length]),
  );
}

/**
 * Runs a change of who holds what under the staff-access lock and refuses it (LastHolderError, rolled back with the
 * transaction) when a guarded permission some active member held before is held by none after.
 */
export async function keepingGuardedHolders<T>(tx: Database, change: () => Promise<T>): Promise<T> {
  await lockStaffAccess(tx);
  const before = await guardedHolders(tx);
  const result = await change();
  const after = await guardedHolders(tx);
  const lost = GUARDED_PERMISSIONS.find((permission) => (before.get(permission) ?? 0) > 0 && (after.get(permission) ?? 0) === 0);
  if (lost) throw new LastHolderError(lost);
  return result;
}

export async function countActiveAdmins(db: Database): Promise<number> {
  const [row] = await db
    .select({ count: sql<number>`count(*)::int` })
    .from(staffUsers)
    .where(and(eq(staffUsers.role, "admin"), eq(staffUsers.disabled, false)));
  return Number(row?.count ?? 0);
}
