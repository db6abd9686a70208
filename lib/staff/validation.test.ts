import { describe, expect, it } from "vitest";

import { parseInviteStaff } from "./rules";
import { inviteStaffSchema } from "./validation";

describe("staff member's name: invisible and text-direction characters", () => {
  it("are refused by the invite form's rule and by POST /api/staff's schema, naming the field", () => {
    const input = { email: "ana@example.com", name: "Ana \u202Eortsim\u202C", role: "analyst" };
    expect(parseInviteStaff(input)).toEqual({
      ok: false,
      problems: [{ field: "name", message: "contains invisible or text-direction characters" }],
    });
    const failed = inviteStaffSchema.safeParse({ ...input, name: "An\u200Da" });
    expect(failed.error?.issues.map((issue) => [issue.path.join("."), issue.message])).toEqual([
      ["name", "contains invisible or text-direction characters"],
    ]);
    expect(inviteStaffSchema.parse({ ...input, name: " Ana Conceição " })).toMatchObject({ name: "Ana Conceição" });
  });
});
