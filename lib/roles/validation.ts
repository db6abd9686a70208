import { parseRoleInput, type RoleInput } from "@/lib/auth/permissions";
import { schemaFromParser, type PlainParse } from "@/lib/shared/from-parser";
import { hasUnsafeTextCharacters, UNSAFE_TEXT_MESSAGE } from "@/lib/shared/safe-text";

// The roles route handlers' schemas, on the rule the role editor runs in the browser (lib/auth/permissions.ts),
// plus the safe-text rule (lib/shared/safe-text.ts): a role's name, which every admin reads, holds no
// bidirectional control or zero-width character.

function withSafeName<T>(parse: PlainParse<T>): PlainParse<T> {
  return (input) => {
    const parsed = parse(input);
    const name = typeof input === "object" && input !== null ? (input as Record<string, unknown>).name : undefined;
    if (typeof name !== "string" || !hasUnsafeTextCharacters(name)) return parsed;
    const others = parsed.ok ? [] : parsed.problems.filter((problem) => problem.field !== "name");
    return { ok: false, problems: [{ field: "name", message: UNSAFE_TEXT_MESSAGE }, ...others] };
  };
}

/** POST /api/roles: `{name, permissions}`, both required. */
export const createRoleSchema = schemaFromParser(
  withSafeName((input) => {
    const parsed = parseRoleInput(input);
    return parsed.ok ? { ok: true as const, value: parsed.value as RoleInput } : parsed;
  }),
);

/** PATCH /api/roles/{id}: `{name?, permissions?}`, at least one. */
export const updateRoleSchema = schemaFromParser(withSafeName((input) => parseRoleInput(input, { partial: true })));
