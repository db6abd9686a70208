import { describe, expect, it } from "vitest";

import { createTemplateSchema, updateTemplateSchema } from "@/lib/cases/template-validation";
import { holdsCpf, matchTemplates, placeholdersIn, resolveTemplate, unknownPlaceholders } from "@/lib/cases/templates";

describe("template placeholders", () => {
  it("fills each known placeholder from the facts, every time it appears", () => {
    const { text, missing } = resolveTemplate("{failing_step} failed on {verification_date} ({flow}); {failing_step} again.", {
      failing_step: "OCR",
      verification_date: "03/11/2026",
      flow: "default",
    });
    expect(text).toBe("OCR failed on 03/11/2026 (default); OCR again.");
    expect(missing).toEqual([]);
  });

  it("leaves a placeholder the page does not know as written, and names it", () => {
    const { text, missing } = resolveTemplate("Ref {ref_id}, step {failing_step}.", { ref_id: null, failing_step: "" });
    expect(text).toBe("Ref {ref_id}, step {failing_step}.");
    expect(missing).toEqual(["ref_id", "failing_step"]);
  });

  it("never touches braces that are not placeholders", () => {
    expect(resolveTemplate("{unknown} and { ref_id } stay", { ref_id: "R-1" }).text).toBe("{unknown} and { ref_id } stay");
  });

  it("lists the placeholders of a text once each, and the unknown ones", () => {
    expect(placeholdersIn("{flow} {ref_id} {flow}")).toEqual(["flow", "ref_id"]);
    expect(unknownPlaceholders("{flow} {person_name} {cpf}")).toEqual(["person_name", "cpf"]);
  });
});

describe("no personal data in a template", () => {
  it("sees a CPF, punctuated, bare or partly masked", () => {
    for (const text of ["123.456.789-09", "12345678909", "CPF ***.456.789-** here", "123 456 789 09"])
      expect(holdsCpf(text), text).toBe(true);
  });

  it("lets dates, counts and longer numbers through", () => {
    for (const text of ["03/11/2026", "score 80", "ref 2026-11-03", "phone 5511987654321", "*** masked ***"])
      expect(holdsCpf(text), text).toBe(false);
  });
});

describe("template input", () => {
  const base = { kind: "reprove", scope: "personal", name: "Blurry", reasons: ["low_image_quality"], comment: "" };
  const fields = (result: { success: boolean; error?: { issues: Array<{ path: PropertyKey[] }> } }) =>
    result.error?.issues.map((issue) => issue.path.join(".")) ?? [];

  it("names the field of each problem", () => {
    expect(fields(createTemplateSchema.safeParse({ ...base, reasons: ["identity_confirmed"] }))).toEqual(["reasons"]);
    expect(fields(createTemplateSchema.safeParse({ ...base, comment: "{who}" }))).toEqual(["comment"]);
    expect(fields(createTemplateSchema.safeParse({ ...base, name: " " }))).toEqual(["name"]);
    expect(fields(createTemplateSchema.safeParse({ ...base, extra: 1 }))).toEqual([""]);
    expect(fields(updateTemplateSchema.safeParse({}))).toEqual(["name"]);
  });

  it("says which placeholder is unknown and which are known", () => {
    const message = createTemplateSchema.safeParse({ ...base, comment: "{who} {flow}" }).error?.issues[0]?.message;
    expect(message).toContain("{who}");
    expect(message).toContain("{verification_date}");
  });

  it("accepts a template with every known placeholder", () => {
    const comment = "{verification_date} {failing_step} {ref_id} {flow} {public_id}";
    expect(createTemplateSchema.safeParse({ ...base, comment }).success).toBe(true);
  });
});

describe("choosing a template", () => {
  const list = [{ name: "Blurry photo" }, { name: "Expired document" }, { name: "blank selfie" }];

  it("by its number in the list", () => {
    expect(matchTemplates(list, "2")).toEqual([{ name: "Expired document" }]);
    expect(matchTemplates(list, "7")).toEqual([]);
  });

  it("by a prefix of its name, whatever its case", () => {
    expect(matchTemplates(list, "bl").map((item) => item.name)).toEqual(["Blurry photo", "blank selfie"]);
    expect(matchTemplates(list, "EXP").map((item) => item.name)).toEqual(["Expired document"]);
    expect(matchTemplates(list, "")).toHaveLength(3);
  });
});
