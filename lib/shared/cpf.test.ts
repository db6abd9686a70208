import { describe, expect, it } from "vitest";

import { formatCpf, formatCpfPartial, isValidCpf, maskCpf } from "./cpf";
import { cpfSchema } from "./cpf-schema";

describe("CPF", () => {
  it("accepts valid CPFs in any formatting", () => {
    expect(isValidCpf("529.982.247-25")).toBe(true);
    expect(isValidCpf("52998224725")).toBe(true);
    expect(isValidCpf(" 529 982 247 25 ")).toBe(true);
    expect(isValidCpf("111.444.777-35")).toBe(true);
  });

  it("refuses wrong check digits, wrong lengths and repeated digits", () => {
    expect(isValidCpf("529.982.247-24")).toBe(false);
    expect(isValidCpf("529.982.247-15")).toBe(false);
    expect(isValidCpf("5299822472")).toBe(false);
    expect(isValidCpf("111.111.111-11")).toBe(false);
    expect(isValidCpf("000.000.000-00")).toBe(false);
  });

  it("formats, formats partially while typing, and masks", () => {
    expect(formatCpf("52998224725")).toBe("529.982.247-25");
    expect(formatCpf("123")).toBe("123");
    expect(formatCpfPartial("5299822")).toBe("529.982.2");
    expect(formatCpfPartial("529982247256789")).toBe("529.982.247-25");
    expect(maskCpf("529.982.247-25")).toBe("***.982.247-**");
  });

  it("the schema yields digits and names the problem", () => {
    expect(cpfSchema.parse("529.982.247-25")).toBe("52998224725");
    const wrong = cpfSchema.safeParse("529.982.247-24");
    expect(wrong.success).toBe(false);
    expect(wrong.error?.issues[0]?.message).toBe("CPF check digits are wrong");
    expect(cpfSchema.safeParse("111.111.111-11").error?.issues.map((issue) => issue.message)).toEqual(["CPF cannot be one repeated digit"]);
    expect(cpfSchema.safeParse("123").error?.issues.map((issue) => issue.message)).toEqual(["CPF must have 11 digits"]);
  });
});
