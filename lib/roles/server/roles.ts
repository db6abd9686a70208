import "server-only";

import { and, asc, count, eq, isNull, sql } from "drizzle-orm";

import { recordEvent } from "@/lib/audit-trail/server/record";
import { BUILT_IN_PERMISSIONS, BUILT_IN_ROLES, normalisePermissions, type RoleInput } from "@/lib/auth/permissions";
import { assertHeld, OwnAccessError } from "@/lib/auth/server/delegation";
import { forgetLocally } from "@/lib/auth/server/session-invalidation";
import { keepingGuardedHolders, lockStaffAccess } from "@/lib/auth/server/staff-access";
import { pgErrorCode } from "@/lib/auth/server/staff-store";
import { staffRoles, staffUsers, type StaffRoleRow } from "@/lib/auth/server/tables";
import type { StaffSession } from "@/lib/auth/types";
import type { Database } from "@/lib/db/client";
import type { RoleDto } from "@/lib/roles/types";
import { AppError } from "@/lib/shared/errors";

/*
 * Custom roles: created, edited and retired by members holding roles.manage. Each change and its audit event
 * commit in one transaction. A change to a role's permissions reaches its members on their next request on
 * every instance: the database trigger announces it ('r:<id>', migration 0006_custom_roles) and this
 * process forgets at once.
 *
 * Retiring a role some member still holds (active or disabled) is refused with 409 naming how many: move
 * them to another role first. Nobody is ever left holding a retired role, and nobody silently loses access.
 * Built-in roles are not rows and cannot be edited or retired (403). Every change asks for a step-up first
 * (the routes' `stepUp`, lib/api/route.ts).
 *
 * Delegation is bounded (lib/auth/server/delegation.ts): a role is made with, and edited from and to, only
 * permissions its editor holds (403 permission_not_held); nobody edits the role they hold (403 own_access); an edit
 * that would leave no active member holding roles.manage or staff.manage is refused (409 last_holder).
 */

type Actor = Pick<StaffSession, "id" | "email" | "role" | "permissions">;
interface Change {
  actor: Actor;
  ip: string | null;
}

export class RoleNotFoundError extends AppError {
  constructor() {
    super("not_found", "No custom role has this id.");
    this.name = "RoleNotFoundError";
  }
}

export class BuiltInRoleError extends AppError {
  constructor() {
    super("forbidden", "Built-in roles cannot be edited or retired.");
    this.name = "BuiltInRoleError";
  }
}

export class RoleNameTakenError extends AppError {
  constructor() {
    super("conflict", "A role with this name already exists.", { fields: ["name"] });
    this.name = "RoleNameTakenError";
  }
}

export class RoleInUseError extends AppError {
  constructor(readonly members: number) {
    super("conflict", `${members} staff account(s) hold this role: give them another role before retiring it.`);
    this.name = "RoleInUseError";
  }
}

function toDto(row: StaffRoleRow, members: number): RoleDto {
  return {
    id: row.id,
    name: row.name,
    builtIn: false,
    permissions: normalisePermissions(row.permissions),
    members,
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
  };
}

async function memberCounts(db: Database): Promise<Map<string, number>> {
  const rows = await db
    .select({ role: sql<string>`coalesce(${staffUsers.customRoleId}::text, ${staffUsers.role})`, members: count() })
    .from(staffUsers)
    .groupBy(staffUsers.role, staffUsers.customRoleId);
  return new Map(rows.map((row) => [row.role, Number(row.members)]));
}

/** Every role a member can be given: the built-in ones, then the live custom ones by name. */
export async function listRoles(db: Database): Promise<RoleDto[]> {
  const counts = await memberCounts(db);
  const custom = await db
    .select()
    .from(staffRoles)
    .where(isNull(staffRoles.retiredAt))
    .orderBy(asc(sql`lower(${staffRoles.name})`));
  return [
    ...BUILT_IN_ROLES.map((name) => ({
      id: name,
      name,
      builtIn: true,
      permissions: [...BUILT_IN_PERMISSIONS[name]],
      members: counts.get(name) ?? 0,
      createdAt: null,
      updatedAt: null,
    })),
    ...custom.map((row) => toDto(row, counts.get(row.id) ?? 0)),
  ];
}

function nameTaken(error: unknown): boolean {
  return pgErrorCode(error) === "23505";
}

async function liveRole(tx: Database, id: string): Promise<StaffRoleRow> {
  if ((BUILT_IN_ROLES as readonly string[]).includes(id)) throw new BuiltInRoleError();
  // Locks the row: an edit, a retirement and an assignment of this role happen one after the other.
  const [row] = await tx
    .select()
    .from(staffRoles)
    .where(and(eq(staffRoles.id, id), isNull(staffRoles.retiredAt)))
    .for("update");
  if (!row) throw new RoleNotFoundError();
  return row;
}

export async function createRole(db: Database, { actor, ip }: Change, input: RoleInput): Promise<RoleDto> {
  assertHeld(actor, input.permissions);
  try {
    return await db.transaction(async (tx) => {
      const [row] = await tx.insert(staffRoles).values({ name: input.name, permissions: input.permissions }).returning();
      if (!row) throw new Error("role was not created");
      await recordEvent(
        {
          actor,
          ip,
          action: "role.create",
          target: { type: "role", id: row.id },
          outcome: "success",
          details: { name: row.name, permissions: row.permissions.join(" ") },
        },
        tx,
      );
      return toDto(row, 0);
    });
  } catch (error) {
    if (nameTaken(error)) throw new RoleNameTakenError();
    throw error;
  }
}

export async function updateRole(db: Database, { actor, ip }: Change, id: string, change: Partial<RoleInput>): Promise<RoleDto> {
  let updated: RoleDto;
  try {
    updated = await db.transaction(async (tx) => {
      // The staff-access lock before the role's row, in the order a member's role change takes them.
      await lockStaffAccess(tx);
      const before = await liveRole(tx, id);
      if (actor.role === id) throw new OwnAccessError("role");
      assertHeld(actor, [...before.permissions, ...(change.permissions ?? [])]);
      const [row] = await keepingGuardedHolders(tx, () =>
        tx
          .update(staffRoles)
          .set({ ...change, updatedAt: new Date() })
          .where(eq(staffRoles.id, id))
          .returning(),
      );
      if (!row) throw new RoleNotFoundError();
      const added = row.permissions.filter((permission) => !before.permissions.includes(permission));
      const removed = before.permissions.filter((permission) => !row.permissions.includes(permission));
      const details: Record<string, string> = {};
      if (before.name !== row.name) Object.assign(details, { nameFrom: before.name, nameTo: row.name });
      if (added.length) details.added = added.join(" ");
      if (removed.length) details.removed = removed.join(" ");
      await recordEvent({ actor, ip, action: "role.update", target: { type: "role", id }, outcome: "success", details }, tx);
      const [members] = await tx.select({ n: count() }).from(staffUsers).where(eq(staffUsers.customRoleId, id));
      return toDto(row, Number(members?.n ?? 0));
    });
  } catch (error) {
    if (nameTaken(error)) throw new RoleNameTakenError();
    throw error;
  }
  forgetLocally({ roleId: id });
  return updated;
}

/** Retires a role nobody holds; refused (RoleInUseError, 409) while any staff account holds it. */
export async function retireRole(db: Database, { actor, ip }: Change, id: string): Promise<void> {
  await db.transaction(async (tx) => {
    const role = await liveRole(tx, id);
    const [holders] = await tx.select({ n: count() }).from(staffUsers).where(eq(staffUsers.customRoleId, id));
    if (Number(holders?.n ?? 0) > 0) throw new RoleInUseError(Number(holders?.n));
    await tx.update(staffRoles).set({ retiredAt: new Date(), updatedAt: new Date() }).where(eq(staffRoles.id, id));
    await recordEvent(
      { actor, ip, action: "role.retire", target: { type: "role", id }, outcome: "success", details: { name: role.name } },
      tx,
    );
  });
  forgetLocally({ roleId: id });
}
