// Shared by server and browser code: the permission catalogue and the built-in roles (docs/permissions.md).
//
// A route or page declares the permission it needs; a member holds the permissions of their role. One table
// (`PERMISSION_GROUPS`) says what exists, one (`BUILT_IN_PERMISSIONS`) what each built-in role holds; the rest
// derive from them. docs/permissions.md shows both, and permissions-doc.test.ts holds its table to them. Labels
// and explanations live in messages/<locale>/roles.json under `permissions.<resource>.<action>`.

import { hasPermission, type PermissionHolder } from "./has-permission";

/** The catalogue, grouped by resource, in the order the role editor shows it: the one list of what exists. */
export const PERMISSION_GROUPS = [
  {
    resource: "verifications",
    permissions: [
      "verifications.read",
      "verifications.create",
      "verifications.export",
      "verifications.crop",
      "verifications.reverify",
      "media.read",
      "personal_data.unmasked",
    ],
  },
  { resource: "cases", permissions: ["cases.read", "cases.work", "cases.confirm", "cases.assign", "analytics.read"] },
  { resource: "operations", permissions: ["lookups.run", "kyc.start", "sms.send"] },
  { resource: "administration", permissions: ["integrations.manage", "staff.manage", "roles.manage"] },
  { resource: "audit", permissions: ["audit.read", "audit.export", "privacy.report", "privacy.erase", "privacy.requests", "coaf.report"] },
] as const satisfies ReadonlyArray<{ resource: string; permissions: readonly string[] }>;

export type Permission = (typeof PERMISSION_GROUPS)[number]["permissions"][number];

/** Every permission, in catalogue order (the groups' order). */
export const PERMISSIONS: readonly Permission[] = PERMISSION_GROUPS.flatMap((group) => group.permissions);

/** The permissions of one group of the catalogue (built-in roles are written as groups where they hold all of one). */
function groupPermissions(resource: (typeof PERMISSION_GROUPS)[number]["resource"]): readonly Permission[] {
  return PERMISSION_GROUPS.find((group) => group.resource === resource)!.permissions;
}

export function isPermission(value: unknown): value is Permission {
  return typeof value === "string" && (PERMISSIONS as readonly string[]).includes(value);
}

export const BUILT_IN_ROLES = ["viewer", "analyst", "reviewer", "auditor", "admin"] as const;
export type BuiltInRole = (typeof BUILT_IN_ROLES)[number];

export function isBuiltInRole(value: unknown): value is BuiltInRole {
  return typeof value === "string" && (BUILT_IN_ROLES as readonly string[]).includes(value);
}

/*
 * What each built-in role holds. `analyst` and `admin` are exactly what those roles could do before
 * permissions existed: an analyst reads, creates and exports verifications, sees what the API key returns
 * (images and unmasked data included), works cases (claims, notes, outcomes, confirms another analyst's
 * outcome), runs lookups, KYC sessions and SMS checks; an admin does all of it plus assigning cases to
 * others, the case sync, integration keys, staff, roles and the audit log. Drawing a document's portrait crop and
 * asking for a re-verification (which creates a verification upstream) have their own permissions: the analyst's.
 */
const ANALYST: readonly Permission[] = [
  ...groupPermissions("verifications"),
  "cases.read",
  "cases.work",
  "cases.confirm",
  ...groupPermissions("operations"),
];

export const BUILT_IN_PERMISSIONS: Record<BuiltInRole, readonly Permission[]> = {
  /** Reads verifications (masked, no images) and the case queue; changes nothing. */
  viewer: ["verifications.read", "cases.read"],
  analyst: ANALYST,
  /**
   * Case review: reads everything a case needs (draws the portrait crop), confirms outcomes and runs the queue (assigns
   * to others), and reads the team's numbers (decisions, times, SLA per member) the way a supervisor does.
   */
  reviewer: [
    "verifications.read",
    "verifications.crop",
    "media.read",
    "personal_data.unmasked",
    "cases.read",
    "cases.work",
    "cases.confirm",
    "cases.assign",
    "analytics.read",
  ],
  /** Audit and privacy; read-only otherwise (masked data, no images). */
  auditor: ["verifications.read", "cases.read", "audit.read", "audit.export", "privacy.report"],
  admin: PERMISSIONS,
};

// The question itself lives in a module of its own, which client components import without this catalogue.
export { hasPermission, type PermissionHolder } from "./has-permission";

/** What of `wanted` the holder lacks (catalogue order): a member grants, and acts on a member holding, only what they hold. */
export function permissionsNotHeld(holder: PermissionHolder, wanted: readonly string[]): Permission[] {
  return normalisePermissions(wanted).filter((permission) => !hasPermission(holder, permission));
}

/*
 * Delegation's guarded permissions: the last active member holding one of these cannot lose it (a role edit, a
 * role change, a disabled account), or nobody could give it back.
 */
export const GUARDED_PERMISSIONS = ["roles.manage", "staff.manage"] as const satisfies readonly Permission[];

/*
 * The privileged set (docs/security.md#second-factors): a member holding any of these sees biometric or
 * unmasked personal data, or changes who may do what. Under MFA_REQUIRED=privileged (the production default)
 * such a member must have a second factor.
 */
export const PRIVILEGED_PERMISSIONS: readonly Permission[] = [
  "media.read",
  "personal_data.unmasked",
  // Answers the federal revenue record of any CPF typed (masked without personal_data.unmasked, but it still
  // says whether the CPF exists, is deceased or is a PEP).
  "lookups.run",
  "staff.manage",
  "roles.manage",
  "integrations.manage",
  "audit.export",
  "privacy.report",
  // Erases a person's notes, comments and index entries for good (with a second member's confirmation).
  "privacy.erase",
  // Reads and files suspicious-activity reports to COAF (Lei 9.613/98 art. 11), which the person must never learn of.
  "coaf.report",
];

/** Whether the sign-in policy asks this member for a second factor. */
export function secondFactorRequired(policy: "all" | "privileged" | "off", holder: PermissionHolder): boolean {
  if (policy === "all") return true;
  if (policy === "off") return false;
  return holder.permissions.some((permission) => PRIVILEGED_PERMISSIONS.includes(permission));
}

/** Only catalogue names, each once, in catalogue order (what a custom role stores). */
export function normalisePermissions(values: readonly string[]): Permission[] {
  const wanted = new Set(values);
  return PERMISSIONS.filter((permission) => wanted.has(permission));
}

export const MAX_ROLE_NAME_LENGTH = 60;

export interface RoleProblem {
  field: "name" | "permissions" | "(input)";
  message: string;
}

export interface RoleInput {
  name: string;
  permissions: Permission[];
}

/**
 * A custom role as the role editor (in the browser), POST /api/roles and PATCH /api/roles/{id} accept it:
 * a name (trimmed, not a built-in role's name) and permissions from the catalogue. With `partial`, either
 * may be left out (an edit).
 */
export function parseRoleInput(
  input: unknown,
  { partial = false }: { partial?: boolean } = {},
): { ok: true; value: Partial<RoleInput> } | { ok: false; problems: RoleProblem[] } {
  if (typeof input !== "object" || input === null || Array.isArray(input))
    return { ok: false, problems: [{ field: "(input)", message: "must be an object" }] };
  const { name, permissions } = input as Record<string, unknown>;
  const problems: RoleProblem[] = [];
  const value: Partial<RoleInput> = {};
  if (name !== undefined || !partial) {
    const trimmed = typeof name === "string" ? name.trim().replace(/\s+/g, " ") : "";
    if (trimmed === "") problems.push({ field: "name", message: "is required" });
    else if (trimmed.length > MAX_ROLE_NAME_LENGTH)
      problems.push({ field: "name", message: `must be at most ${MAX_ROLE_NAME_LENGTH} characters` });
    else if (isBuiltInRole(trimmed.toLowerCase())) problems.push({ field: "name", message: "is a built-in role's name" });
    else value.name = trimmed;
  }
  if (permissions !== undefined || !partial) {
    if (!Array.isArray(permissions)) problems.push({ field: "permissions", message: "must be a list of permissions" });
    else {
      const unknown = permissions.filter((entry) => !isPermission(entry));
      if (unknown.length) problems.push({ field: "permissions", message: `unknown permission: ${unknown.map(String).join(", ")}` });
      else value.permissions = normalisePermissions(permissions as string[]);
    }
  }
  if (partial && name === undefined && permissions === undefined) problems.push({ field: "(input)", message: "nothing to change" });
  return problems.length ? { ok: false, problems } : { ok: true, value };
}

/**
 * A member's permissions from their stored role: a built-in role's from the table above; a custom role's
 * as stored (catalogue names only; none when the role is retired); `custom` without a role row, none.
 */
export function resolvePermissions(role: string, custom: { permissions: readonly string[]; retiredAt: Date | null } | null): Permission[] {
  if (isBuiltInRole(role)) return [...BUILT_IN_PERMISSIONS[role]];
  if (!custom || custom.retiredAt) return [];
  return normalisePermissions(custom.permissions);
}
