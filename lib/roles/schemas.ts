import { parseRoleInput, type RoleInput } from "@/lib/auth/permissions";

import { schemaFromParser } from "../shared/from-parser";

// The roles route handlers' schemas, on the rule the role editor runs in the browser (lib/auth/permissions.ts).

/** POST /api/roles: `{name, permissions}`, both required. */
export const createRoleSchema = schemaFromParser((input) => {
  const parsed = parseRoleInput(input);
  return parsed.ok ? { ok: true as const, value: parsed.value as RoleInput } : parsed;
});

/** PATCH /api/roles/{id}: `{name?, permissions?}`, at least one. */
export const updateRoleSchema = schemaFromParser((input) => parseRoleInput(input, { partial: true }));
