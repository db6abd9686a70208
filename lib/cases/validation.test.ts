import { describe, expect, it } from "vitest";

import { confirmationSchema, noteSchema, outcomeSchema } from "./validation";

describe("case free text: invisible and text-direction characters", () => {
  const refused = (result: { error?: { issues: Array<{ path: PropertyKey[]; message: string }> } }) =>
    result.error?.issues.map((issue) => [issue.path.join("."), issue.message]);

  it("a note, a decision's comment and a confirmation's comment are refused, naming the field", () => {
    expect(refused(noteSchema.safeParse({ text: "Documents match \u202Eevorppa" }))).toEqual([
      ["text", "contains invisible or text-direction characters"],
    ]);
    expect(
      refused(outcomeSchema.safeParse({ recommendation: "approve", reasons: ["identity_confirmed"], comment: "ok\u200B" })),
    ).toContainEqual(["comment", "contains invisible or text-direction characters"]);
    expect(refused(confirmationSchema.safeParse({ agree: false, comment: "\u2067disagree\u2069" }))).toEqual([
      ["comment", "contains invisible or text-direction characters"],
    ]);
  });

  it("ordinary text, newlines included, still passes", () => {
    expect(noteSchema.parse({ text: "Selfie matches.\nDocument: CNH, São Paulo." })).toEqual({
      text: "Selfie matches.\nDocument: CNH, São Paulo.",
    });
  });
});
