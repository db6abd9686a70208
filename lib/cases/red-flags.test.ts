import { describe, expect, it } from "vitest";

import type { Verification } from "@/lib/upstream/model/verification";
import { isDecided } from "@/lib/upstream/model/verification";

import { openSteps, redFlags, riskBand } from "./red-flags";

function verification(patch: Partial<Verification> = {}): Verification {
  return {
    publicId: "ver_1",
    document: "***.982.247-**",
    documentMasked: true,
    status: "approved",
    steps: [
      { name: "ocr", state: "approved", notices: [], extra: {} },
      { name: "liveness", state: "approved", score: 97, notices: [], extra: {} },
      { name: "facematch", state: "approved", similarity: 91, notices: [], extra: {} },
    ],
    identityScore: 90,
    riskScore: 12,
    pepOrigin: null,
    restrictiveLists: [],
    person: {},
    extra: {},
    ...patch,
  };
}

describe("redFlags", () => {
  it("finds none on a clean verification", () => {
    expect(redFlags(verification())).toEqual([]);
  });

  it("names each restrictive list, the PEP origin, high risk and the failed checks", () => {
    const flags = redFlags(
      verification({
        pepOrigin: "Deputado Estadual (RJ)",
        restrictiveLists: [
          { name: "Mandados de prisão (BNMP)", source: "CNJ", extra: {} },
          { name: "OFAC SDN List", extra: {} },
        ],
        riskScore: 92,
        steps: [
          { name: "liveness", state: "reproved", notices: [], extra: {} },
          { name: "facematch", state: "reproved", similarity: 79.9, notices: [], extra: {} },
        ],
        extra: { deceased: true },
      }),
    );
    expect(flags).toEqual([
      { kind: "deceased" },
      { kind: "pep", origin: "Deputado Estadual (RJ)" },
      { kind: "restrictive_list", name: "Mandados de prisão (BNMP)", source: "CNJ" },
      { kind: "restrictive_list", name: "OFAC SDN List", source: null },
      { kind: "facematch_below", similarity: 79.9 },
      { kind: "liveness_not_approved", state: "reproved" },
      { kind: "high_risk", score: 92 },
    ]);
  });

  it("takes the PEP flag alone when no origin is given, and 80 % exactly as valid", () => {
    const flags = redFlags(
      verification({ person: { pep: true }, steps: [{ name: "facematch", state: "approved", similarity: 80, notices: [], extra: {} }] }),
    );
    expect(flags).toEqual([{ kind: "pep", origin: null }]);
  });

  it("flags high risk from the high band's bound, or from the caller's own threshold on the same scale", () => {
    expect(redFlags(verification({ riskScore: 69 }))).toEqual([]);
    expect(redFlags(verification({ riskScore: 70 }))).toEqual([{ kind: "high_risk", score: 70 }]);
    expect(redFlags(verification({ riskScore: 69 }), { riskThreshold: 60 })).toEqual([{ kind: "high_risk", score: 69 }]);
    expect(redFlags(verification({ riskScore: 70 }), { riskThreshold: 90 })).toEqual([]);
  });

  it("does not flag a liveness step still pending", () => {
    expect(redFlags(verification({ steps: [{ name: "liveness", state: "pending", notices: [], extra: {} }] }))).toEqual([]);
  });
});

describe("riskBand and isDecided", () => {
  it.each([
    [0, "low"],
    [39, "low"],
    [40, "medium"],
    [69, "medium"],
    [70, "high"],
    [100, "high"],
  ])("%d is %s", (score, band) => expect(riskBand(score)).toBe(band));

  it("counts only approved and reproved as outcomes", () => {
    expect(["approved", "reproved", "review", "started", null].map(isDecided)).toEqual([true, true, false, false, false]);
  });
});

describe("openSteps", () => {
  it("is empty only when every step the contract names is there and approved", () => {
    expect(openSteps(verification())).toEqual([]);
    const pending = verification({
      steps: [
        { name: "ocr", state: "pending", notices: [], extra: {} },
        { name: "liveness", state: null, notices: [], extra: {} },
      ],
    });
    expect(openSteps(pending)).toEqual([
      { name: "ocr", state: "pending" },
      { name: "liveness", state: null },
      { name: "facematch", state: "missing" },
    ]);
    // No red flag is not an all-clear while a step is still open.
    expect(redFlags(pending)).toEqual([]);
    expect(openSteps(verification({ steps: [] })).map((step) => step.state)).toEqual(["missing", "missing", "missing"]);
  });
});
