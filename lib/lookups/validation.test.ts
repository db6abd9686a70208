import { describe, expect, it } from "vitest";

import { kycSessionSchema } from "@/lib/kyc/validation";
import { cpfProblem } from "@/lib/shared/cpf";

import { cpfLookupSchema, purposeProblem } from "./validation";

describe("CPF lookup input", () => {
  it("accepts any CPF formatting and normalises purpose", () => {
    expect(cpfLookupSchema.parse({ cpf: "529 982 247 25", source: "receita", purpose: "  Onboarding\n check " })).toEqual({
      cpf: "52998224725",
      source: "receita",
      purpose: "Onboarding check",
    });
  });

  it("names each refused field", () => {
    const failed = cpfLookupSchema.safeParse({ cpf: "529.982.247-24", source: "serasa", purpose: "" });
    expect(failed.error?.issues.map((issue) => issue.path.join("."))).toEqual(["cpf", "source", "purpose"]);
    expect(cpfLookupSchema.safeParse({ cpf: "52998224725", source: "history", purpose: "ok ok", extra: 1 }).success).toBe(false);
  });

  it("problems as translatable keys", () => {
    expect(cpfProblem("")).toBe("required");
    expect(cpfProblem("123")).toBe("length");
    expect(cpfProblem("111.111.111-11")).toBe("repeated");
    expect(cpfProblem("529.982.247-24")).toBe("check_digits");
    expect(cpfProblem("529.982.247-25")).toBeUndefined();
    expect(purposeProblem(" ")).toBe("required");
    expect(purposeProblem("abc")).toBe("too_short");
    expect(purposeProblem("x".repeat(301))).toBe("too_long");
  });

  it("KYC session input", () => {
    expect(kycSessionSchema.parse({ cpf: "390.533.447-05", purpose: "  Onboarding   check " })).toEqual({
      cpf: "39053344705",
      purpose: "Onboarding check",
    });
    expect(kycSessionSchema.safeParse({ cpf: "390.533.447-04", purpose: "Onboarding check" }).success).toBe(false);
    // A purpose, as for a lookup.
    expect(kycSessionSchema.safeParse({ cpf: "390.533.447-05" }).error?.issues.map((issue) => issue.path)).toEqual([["purpose"]]);
  });

  it("refuses a purpose holding invisible or text-direction characters, naming the field (lookup and KYC session)", () => {
    expect(purposeProblem("Onboarding\u200Fcheck")).toBe("invisible");
    expect(purposeProblem("\uFEFFOnboarding check")).toBe("invisible");
    const purpose = "Onboarding \u202Ekcehc";
    for (const failed of [
      cpfLookupSchema.safeParse({ cpf: "52998224725", source: "receita", purpose }),
      kycSessionSchema.safeParse({ cpf: "52998224725", purpose }),
    ]) {
      expect(failed.error?.issues.map((issue) => [issue.path.join("."), issue.message])).toEqual([
        ["purpose", "Purpose contains invisible or text-direction characters"],
      ]);
    }
  });
});
