import type { Permission } from "./permissions";

/*
 * The one permission question, in a module of its own: client components ask it (which panel, which button), and the
 * catalogue beside it (lib/auth/permissions.ts: the groups, the built-in roles, the role editor's rules) is not code
 * those pages need in the browser.
 */

/** What a signed-in member carries: their permissions, resolved from their role on every request. */
export interface PermissionHolder {
  permissions: readonly Permission[];
}

/** The one question: does this member hold this permission? */
export function hasPermission(holder: PermissionHolder | null | undefined, permission: Permission): boolean {
  return holder?.permissions.includes(permission) ?? false;
}
