import { describe, expect, it } from "vitest";

import { reshapeNotice, reshapeVerification, verificationFilesWire, verificationWire } from "@/lib/upstream/core-validation";

/* Wire schemas accept what the contract shows (and unknown fields); reshapers build the domain types. */

const wireVerification = {
  public_id: "v-1",
  document: "123.456.789-09",
  status: "review",
  flow: "default",
  journey: "onboarding",
  created_at: "2026-09-30T10:00:00-03:00",
  decided_at: null,
  name: "Maria Silva",
  pep: true,
  pep_origin: "Mandato eletivo",
  restrictive_lists: [{ name: "OFAC", source: "ofac", listed_at: "2020-01-01", severity: "high" }, "Interpol"],
  steps: {
    facematch: { state: "approved", similarity: 91.5, notices: [] },
    extra_check: { state: "pending", notices: ["waiting"], provider: "bureau-x" },
    ocr: { state: "review", notices: [{ code: "N1", message: "blurry" }, { description: "x" }, 42] },
    liveness: { state: "approved", score: 0.97, notices: [], attempts: 2 },
    weird: "not a step",
  },
  identity_score: 812,
  risk_score: 120,
  brand_new_field: { nested: true },
};

describe("reshapeVerification", () => {
  it("builds the domain verification", () => {
    const verification = reshapeVerification(verificationWire.parse(wireVerification));
    expect(verification).toMatchObject({
      publicId: "v-1",
      document: "123.456.789-09",
      documentMasked: false,
      status: "review",
      flow: "default",
      journey: "onboarding",
      createdAt: "2026-09-30T10:00:00-03:00",
      identityScore: 812,
      riskScore: 120,
      pepOrigin: "Mandato eletivo",
      person: { name: "Maria Silva", pep: true },
      extra: { brand_new_field: { nested: true } },
    });
    expect(verification.decidedAt).toBeUndefined();
    expect(verification.restrictiveLists).toEqual([
      { name: "OFAC", source: "ofac", listedAt: "2020-01-01", extra: { severity: "high" } },
      { name: "Interpol", extra: {} },
    ]);
  });

  it("puts the known steps first, keeps unknown step-shaped entries, normalises notices", () => {
    const { steps } = reshapeVerification(verificationWire.parse(wireVerification));
    expect(steps.map((step) => step.name)).toEqual(["ocr", "liveness", "facematch", "extra_check"]);
    expect(steps[0]!.notices).toEqual([{ code: "N1", message: "blurry" }, { message: "x" }, { message: "42" }]);
    // Fields a step carries beyond the contract's are kept, not dropped.
    expect(steps[1]).toEqual({ name: "liveness", state: "approved", score: 0.97, notices: [], extra: { attempts: 2 } });
    expect(steps[2]!.similarity).toBe(91.5);
    expect(steps[3]).toEqual({ name: "extra_check", state: "pending", notices: [{ message: "waiting" }], extra: { provider: "bureau-x" } });
  });

  it("tolerates missing steps and scores, and flags masked documents", () => {
    const verification = reshapeVerification(verificationWire.parse({ public_id: "v", document: "***.456.789-**", status: "approved" }));
    expect(verification).toMatchObject({
      documentMasked: true,
      steps: [],
      identityScore: null,
      riskScore: null,
      pepOrigin: null,
      restrictiveLists: [],
    });
  });

  it("refuses a verification without its identifying fields", () => {
    expect(verificationWire.safeParse({ document: "x", status: "approved" }).success).toBe(false);
    expect(verificationWire.safeParse({ ...wireVerification, identity_score: "high" }).success).toBe(false);
  });
});

describe("reshapeNotice", () => {
  it("reads strings, {code, message}-like objects and anything else", () => {
    expect(reshapeNotice("hello")).toEqual({ message: "hello" });
    expect(reshapeNotice({ code: 7 })).toEqual({ code: "7", message: "7" });
    expect(reshapeNotice({ text: "t" })).toEqual({ message: "t" });
    expect(reshapeNotice(null)).toEqual({ message: "null" });
  });
});

describe("verification files", () => {
  it("accepts null and unknown keys", () => {
    const parsed = verificationFilesWire.parse({ selfie: null, document_back: null, document_front: { anything: 1 } });
    expect(parsed.selfie).toBeNull();
  });

  it("refuses a file without a usable URL", () => {
    expect(
      verificationFilesWire.safeParse({ selfie: { url: "not a url", expires_in: 300, file: { public_id: "x", type: "image/png" } } })
        .success,
    ).toBe(false);
  });
});
