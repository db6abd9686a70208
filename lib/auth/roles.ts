// Shared by server and browser code: how a member's role is named (docs/permissions.md).
//
// A member holds one role: a built-in one (`viewer`, `analyst`, `reviewer`, `auditor`, `admin`, which nobody
// can edit) or a custom one that an admin made at /admin/roles. Wherever a role is named (the API, the staff
// table, the audit trail) it is the built-in name or the custom role's id. What a role may do is its
// permissions (lib/auth/permissions.ts), never its name.

import { BUILT_IN_ROLES, isBuiltInRole, type BuiltInRole } from "./permissions";

export const ROLES = BUILT_IN_ROLES;
export type Role = BuiltInRole;

/** A built-in role's name or a custom role's id. */
export type RoleRef = string;

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** A built-in role's name or something shaped like a custom role's id (whether it exists is the server's question). */
export function isRoleRef(value: unknown): value is RoleRef {
  return isBuiltInRole(value) || (typeof value === "string" && UUID.test(value));
}
