// Shared by server and browser code: the two staff roles and what each may do (DESIGN.md).

export const ROLES = ["analyst", "admin"] as const;
export type Role = (typeof ROLES)[number];

/** An admin does everything an analyst does, plus integration keys, staff accounts and the audit log. */
export function hasRole(userRole: Role, required: Role): boolean {
  return required === "analyst" || userRole === "admin";
}

export function isRole(value: unknown): value is Role {
  return typeof value === "string" && (ROLES as readonly string[]).includes(value);
}
