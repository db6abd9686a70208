import "server-only";

import { permissionsNotHeld, type PermissionHolder } from "@/lib/auth/permissions";
import { AppError } from "@/lib/shared/errors";

/*
 * Delegation bounded (docs/permissions.md#delegation): a member grants only permissions they hold, in a role they
 * make or edit, an invitation or a member's role change (granting a role grants all its permissions; the built-in
 * admin holds them all); acts only on accounts and roles whose permissions they all hold; and never changes their
 * own role, their own account's access or the role they hold. The last active holder of roles.manage or
 * staff.manage keeps it (staff-access.ts `keepingGuardedHolders`).
 */

/** 403 `permission_not_held`, naming what the member lacks. */
export class PermissionNotHeldError extends AppError {
  constructor(readonly missing: readonly string[]) {
    super(
      "permission_not_held",
      `You can grant, or act on a member or role holding, only permissions you hold yourself: you lack ${missing.join(", ")}.`,
    );
    this.name = "PermissionNotHeldError";
  }
}

/** 403 `own_access`: someone else changes a member's own role, account or the role they hold. */
export class OwnAccessError extends AppError {
  constructor(what: "account" | "role") {
    super(
      "own_access",
      what === "account"
        ? "Nobody changes their own role or disables or re-enables their own account: ask another member."
        : "Nobody edits the role they hold: ask another member.",
    );
    this.name = "OwnAccessError";
  }
}

/** Refuses (PermissionNotHeldError) when `permissions` holds any the member lacks. */
export function assertHeld(holder: PermissionHolder, permissions: readonly string[]): void {
  const missing = permissionsNotHeld(holder, permissions);
  if (missing.length > 0) throw new PermissionNotHeldError(missing);
}
