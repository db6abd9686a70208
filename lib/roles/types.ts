import type { Permission } from "@/lib/auth/permissions";

// Shared (no server imports): roles as the role editor and the API show them.

export interface RoleDto {
  /** A built-in role's name, or a custom role's id. */
  id: string;
  /** A custom role's name; for a built-in role, its name (the UI translates it). */
  name: string;
  builtIn: boolean;
  permissions: Permission[];
  /** Staff accounts holding this role (disabled ones included). */
  members: number;
  createdAt: string | null;
  updatedAt: string | null;
}

export interface PermissionEntry {
  name: Permission;
  label: string;
  description: string;
}

export interface PermissionCatalogue {
  groups: Array<{ resource: string; label: string; permissions: PermissionEntry[] }>;
}
