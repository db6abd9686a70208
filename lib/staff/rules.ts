import { MAX_EMAIL_LENGTH, normaliseEmail } from "@/lib/auth/credentials";
import { BUILT_IN_PERMISSIONS, type Permission } from "@/lib/auth/permissions";
import { isRoleRef, ROLES, type RoleRef } from "@/lib/auth/roles";
import { hasUnsafeTextCharacters, UNSAFE_TEXT_MESSAGE } from "@/lib/shared/safe-text";
import type { RoleChoice } from "@/lib/staff/types";

// Staff rules without zod (client components import them); staff.ts builds the schemas on them.

export const MAX_NAME_LENGTH = 120;

// The address shape zod's `z.email()` checks (what the invitation accepted before it had its own rule).
const EMAIL = /^(?:[A-Za-z0-9_'+-]+\.)*[A-Za-z0-9_'+-]*[A-Za-z0-9_+-]@(?:[A-Za-z0-9][A-Za-z0-9-]*\.)+[A-Za-z]{2,}$/;

export interface InviteStaffInput {
  email: string;
  name: string;
  /** A built-in role's name or a custom role's id. */
  role: RoleRef;
}

export interface StaffProblem {
  field: "email" | "name" | "role" | "(input)";
  message: string;
}

/**
 * The invitation, one definition for the invite form (in the browser), POST /api/staff (staff.ts builds
 * its schema on it) and `npm run user:add`: the email trimmed and lower-cased, a name, a role (built-in name or
 * custom role id; whether the custom role exists is the server's check). A name holding bidirectional
 * controls or zero-width characters is refused. Other keys are ignored.
 */
export function parseInviteStaff(input: unknown): { ok: true; value: InviteStaffInput } | { ok: false; problems: StaffProblem[] } {
  if (typeof input !== "object" || input === null || Array.isArray(input))
    return { ok: false, problems: [{ field: "(input)", message: "must be an object" }] };
  const { email, name, role } = input as Record<string, unknown>;
  const problems: StaffProblem[] = [];
  const address = typeof email === "string" ? normaliseEmail(email) : "";
  if (address === "") problems.push({ field: "email", message: "is required" });
  else if (address.length > MAX_EMAIL_LENGTH) problems.push({ field: "email", message: `must be at most ${MAX_EMAIL_LENGTH} characters` });
  else if (!EMAIL.test(address)) problems.push({ field: "email", message: "must be an email address" });
  const fullName = typeof name === "string" ? name.trim() : "";
  if (fullName === "") problems.push({ field: "name", message: "is required" });
  else if (fullName.length > MAX_NAME_LENGTH) problems.push({ field: "name", message: `must be at most ${MAX_NAME_LENGTH} characters` });
  // Bidirectional controls and zero-width characters (lib/shared/safe-text.ts): a name must read as what it is.
  else if (hasUnsafeTextCharacters(name as string)) problems.push({ field: "name", message: UNSAFE_TEXT_MESSAGE });
  if (!isRoleRef(role)) problems.push({ field: "role", message: `must be one of ${ROLES.join(", ")} or a custom role's id` });
  if (problems.length || !isRoleRef(role)) return { ok: false, problems };
  return { ok: true, value: { email: address, name: fullName, role } };
}

/**
 * The permissions a member would lose going from one role to another: a change that takes any away is a demotion,
 * which the staff page asks about first. A role the page does not know (retired meanwhile) counts as losing all of
 * the one it replaces, so the page asks rather than assumes.
 */
export function permissionsLost(choices: readonly RoleChoice[], from: RoleRef, to: RoleRef): string[] {
  const held = choices.find((choice) => choice.id === from)?.permissions ?? [];
  const next = choices.find((choice) => choice.id === to);
  if (!next) return [...held];
  return held.filter((permission) => !next.permissions.includes(permission));
}

/** Every role a member can be given: the built-in ones in their order, then the live custom ones as the page lists them. */
export function roleChoices(custom: ReadonlyArray<{ id: string; name: string; permissions: readonly Permission[] }>): RoleChoice[] {
  return [
    ...ROLES.map((role) => ({ id: role, customName: null, permissions: BUILT_IN_PERMISSIONS[role] })),
    ...custom.map((role) => ({ id: role.id, customName: role.name, permissions: role.permissions })),
  ];
}
