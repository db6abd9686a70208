import "server-only";

import { and, eq, isNull } from "drizzle-orm";

import { BUILT_IN_PERMISSIONS, isBuiltInRole, resolvePermissions, type Permission } from "@/lib/auth/permissions";
import type { RoleRef } from "@/lib/auth/roles";
import { staffRoles, staffUsers } from "@/lib/auth/server/tables";
import type { Database } from "@/lib/db/client";
import { AppError } from "@/lib/shared/errors";

/* A role as the API names it (a built-in name or a live custom role's id), resolved to stored columns and permissions. */

/** The refused role of an invitation or a role change: no such role, or a retired one (names the field). */
export class UnknownRoleError extends AppError {
  constructor() {
    super("validation", "Invalid input: role: must be a built-in role's name or a live custom role's id.", { fields: ["role"] });
    this.name = "UnknownRoleError";
  }
}

/** The stored columns for a role named as the API names it (a built-in name, or a live custom role's id). */
export async function roleColumns(db: Database, ref: RoleRef): Promise<Pick<typeof staffUsers.$inferInsert, "role" | "customRoleId">> {
  const { columns } = await liveRoleRef(db, ref);
  return columns;
}

async function liveRoleRef(
  db: Database,
  ref: RoleRef,
): Promise<{ columns: Pick<typeof staffUsers.$inferInsert, "role" | "customRoleId">; permissions: Permission[] }> {
  if (isBuiltInRole(ref)) return { columns: { role: ref, customRoleId: null }, permissions: [...BUILT_IN_PERMISSIONS[ref]] };
  const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
  if (!UUID.test(ref)) throw new UnknownRoleError();
  // FOR SHARE: a retirement racing this change waits for it, then sees the member holding the role.
  const [row] = await db
    .select({ id: staffRoles.id, permissions: staffRoles.permissions })
    .from(staffRoles)
    .where(and(eq(staffRoles.id, ref), isNull(staffRoles.retiredAt)))
    .for("share");
  if (!row) throw new UnknownRoleError();
  return {
    columns: { role: "custom", customRoleId: row.id },
    permissions: resolvePermissions("custom", { permissions: row.permissions, retiredAt: null }),
  };
}

/** What a role gives (a built-in name or a live custom role's id; UnknownRoleError otherwise): granting it grants these. */
export async function rolePermissions(db: Database, ref: RoleRef): Promise<Permission[]> {
  return (await liveRoleRef(db, ref)).permissions;
}
