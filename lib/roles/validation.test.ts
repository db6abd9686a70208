import { describe, expect, it } from "vitest";

import { createRoleSchema, updateRoleSchema } from "./validation";

describe("custom role's name: invisible and text-direction characters", () => {
  const refused = (result: { error?: { issues: Array<{ path: PropertyKey[]; message: string }> } }) =>
    result.error?.issues.map((issue) => [issue.path.join("."), issue.message]);

  it("are refused on creation and on renaming, naming the field, alongside other problems", () => {
    expect(refused(createRoleSchema.safeParse({ name: "Auditor\u2068", permissions: ["cases.read"] }))).toEqual([
      ["name", "contains invisible or text-direction characters"],
    ]);
    expect(refused(createRoleSchema.safeParse({ name: "\uFEFFAuditor", permissions: ["nope"] }))).toEqual([
      ["name", "contains invisible or text-direction characters"],
      ["permissions", "unknown permission: nope"],
    ]);
    expect(refused(updateRoleSchema.safeParse({ name: "Audi\u200Ctor" }))).toEqual([
      ["name", "contains invisible or text-direction characters"],
    ]);
  });

  it("a plain name, and a change without a name, still pass", () => {
    expect(createRoleSchema.parse({ name: " Auditor  externo ", permissions: ["cases.read"] })).toMatchObject({ name: "Auditor externo" });
    expect(updateRoleSchema.parse({ permissions: ["cases.read"] })).toEqual({ permissions: ["cases.read"] });
  });
});
