import { describe, expect, it } from "vitest";

import { redFlags } from "@/lib/cases/red-flags";
import {
  ageBucketBounds,
  disagrees,
  flagsOf,
  needsConfirmation,
  needsPerson,
  outcomeProblems,
  REASON_CODES,
  recommendationsOf,
} from "@/lib/cases/rules";
import { NOTE_MAX_CHARS, noteSchema, outcomeSchema, queueQuerySchema, searchSchema } from "@/lib/cases/validation";
import { makeVerification, TEST_SETTINGS } from "@/test/cases";

describe("case rules", () => {
  it("age buckets meet without gap or overlap, and the queue's period filter names a bad field", () => {
    const now = new Date("2026-03-11T18:00:00Z");
    const hoursAgo = (hours: number) => new Date(now.getTime() - hours * 3_600_000);
    expect(ageBucketBounds("under_1d", now)).toEqual({ after: hoursAgo(24), atOrBefore: null });
    expect(ageBucketBounds("1d_3d", now)).toEqual({ after: hoursAgo(72), atOrBefore: hoursAgo(24) });
    expect(ageBucketBounds("over_7d", now)).toEqual({ after: null, atOrBefore: hoursAgo(168) });
    const bad = queueQuerySchema.safeParse({ queue: "closed", closed_from: "2026-03-10T00:00:00Z", closed_to: "yesterday" });
    expect(bad.error?.issues.map((issue) => issue.path.join("."))).toEqual(["closed_to"]);
    const reversed = queueQuerySchema.safeParse({ closed_from: "2026-03-10T00:00:00Z", closed_to: "2026-03-09T00:00:00Z" });
    expect(reversed.error?.issues.map((issue) => issue.path.join("."))).toEqual(["closed_to"]);
    expect(queueQuerySchema.safeParse({ age: "forever" }).error?.issues[0]?.path).toEqual(["age"]);
  });

  it("flags PEP, restrictive lists, facematch under 80 % and risk at or above the threshold (0..100)", () => {
    expect(flagsOf(makeVerification(), 70)).toEqual([]);
    const flagged = makeVerification({
      pepOrigin: "Deputado Estadual",
      restrictiveLists: [{ name: "OFAC", extra: {} }],
      similarity: 79.99,
      riskScore: 70,
    });
    expect(flagsOf(flagged, 70)).toEqual(["pep", "restrictive_list", "low_facematch", "high_risk"]);
    expect(flagsOf(makeVerification({ similarity: 80, riskScore: 69 }), 70)).toEqual([]);
  });

  it("agrees with the verification's red flags, with the case's threshold on top", () => {
    const verification = makeVerification({
      pepOrigin: "Prefeito",
      restrictiveLists: [
        { name: "OFAC", extra: {} },
        { name: "CEIS", extra: {} },
      ],
      similarity: 50,
      riskScore: 55,
    });
    const shown = redFlags(verification).map((flag) => flag.kind);
    expect(shown).toEqual(["pep", "restrictive_list", "restrictive_list", "facematch_below"]);
    // Same computation: without a lower threshold, no high risk on either side; with one, both see it.
    expect(flagsOf(verification, 70)).toEqual(["pep", "restrictive_list", "low_facematch"]);
    expect(flagsOf(verification, 50)).toContain("high_risk");
    expect(redFlags(verification, { riskThreshold: 50 }).map((flag) => flag.kind)).toContain("high_risk");
  });

  it("opens for review or an enabled red flag, never on a final status", () => {
    expect(needsPerson("review", [], TEST_SETTINGS)).toBe(true);
    expect(needsPerson("started", ["pep"], TEST_SETTINGS)).toBe(true);
    expect(needsPerson("started", ["pep"], { ...TEST_SETTINGS, redFlags: ["high_risk"] })).toBe(false);
    expect(needsPerson("approved", ["pep"], TEST_SETTINGS)).toBe(false);
    expect(needsPerson("started", [], TEST_SETTINGS)).toBe(false);
  });

  it("four eyes for a reprove and for any outcome on a PEP or restrictive-list case", () => {
    expect(needsConfirmation("approve", [])).toBe(false);
    expect(needsConfirmation("reprove", [])).toBe(true);
    expect(needsConfirmation("approve", ["pep"])).toBe(true);
    // An escalation decides nothing: the decision taken in the escalation queue is the one confirmed.
    expect(needsConfirmation("escalate", ["restrictive_list"])).toBe(false);
    expect(needsConfirmation("approve", ["low_facematch", "high_risk"])).toBe(false);
    expect(disagrees("approve", true, "reproved")).toBe(true);
    expect(disagrees("approve", false, "reproved")).toBe(false);
    expect(disagrees("escalate", true, "approved")).toBe(false);
  });

  it("reasons belong to their recommendation; a reprove needs a reprove reason and a comment", () => {
    const issues = (input: unknown) => outcomeSchema.safeParse(input).error?.issues.map((issue) => issue.path.join(".")) ?? [];
    expect(issues({ recommendation: "approve", reasons: ["identity_confirmed"], comment: "" })).toEqual([]);
    // The issue's example: an approve citing a document mismatch, with no comment, is refused naming the reasons.
    expect(issues({ recommendation: "approve", reasons: ["document_mismatch"], comment: "" })).toEqual(["reasons"]);
    expect(issues({ recommendation: "reprove", reasons: ["identity_confirmed"], comment: "Dates differ." })).toEqual(["reasons"]);
    expect(issues({ recommendation: "reprove", reasons: ["document_mismatch"], comment: "  " })).toEqual(["comment"]);
    expect(issues({ recommendation: "reprove", reasons: ["document_mismatch"], comment: "Birth date differs." })).toEqual([]);
    expect(issues({ recommendation: "reprove", reasons: [], comment: "x" })).toEqual(["reasons"]);
    // Every reason belongs to at least one recommendation, and the catalogue says which.
    for (const code of REASON_CODES) expect(recommendationsOf(code).length).toBeGreaterThan(0);
    expect(recommendationsOf("identity_confirmed")).toEqual(["approve"]);
    expect(outcomeProblems({ recommendation: "escalate", reasons: ["pep_exposure"], comment: "" })).toEqual([]);
  });

  it("notes and comments are capped plain text; the search takes a ref_id or a valid CPF, never both", () => {
    expect(noteSchema.safeParse({ text: "x".repeat(NOTE_MAX_CHARS) }).success).toBe(true);
    const long = noteSchema.safeParse({ text: "x".repeat(NOTE_MAX_CHARS + 1) });
    expect(long.success).toBe(false);
    expect(long.error?.issues[0]?.path).toEqual(["text"]);
    expect(noteSchema.safeParse({ text: "   " }).success).toBe(false);
    expect(noteSchema.safeParse({ text: "a\u0000b" }).success).toBe(false);
    expect(searchSchema.safeParse({ cpf: "529.982.247-25" }).success).toBe(true);
    expect(searchSchema.safeParse({ cpf: "529.982.247-24" }).success).toBe(false);
    expect(searchSchema.safeParse({ cpf: "529.982.247-25", ref_id: "x" }).success).toBe(false);
  });
});
