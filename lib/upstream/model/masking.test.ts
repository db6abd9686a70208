import { describe, expect, it } from "vitest";

import { maskDocument, maskName, maskVerification, verificationFor } from "./masking";
import type { Verification } from "./verification";

// The one masking function, on a verification as a key with the unmasked permission returns it.
function unmasked(): Verification {
  return {
    publicId: "ver_1",
    document: "529.982.247-25",
    documentMasked: false,
    status: "review",
    steps: [
      { name: "ocr", state: "approved", notices: [{ message: "Read 52998224725 from the front" }], extra: { cpf: "529.982.247-25" } },
    ],
    identityScore: 71,
    riskScore: 54,
    pepOrigin: null,
    restrictiveLists: [{ name: "OFAC", extra: { holder: "52998224725" } }],
    person: { name: "Maria da Silva", motherName: "Ana Souza", birthDate: "1990-05-17", pep: true },
    extra: { nested: { document: ["529.982.247-25"] }, count: 3 },
  };
}

describe("masking by the dashboard", () => {
  it("masks document, names and birth date, and says the dashboard did it", () => {
    const masked = maskVerification(unmasked());
    expect(masked).toMatchObject({
      document: "***.982.247-**",
      documentMasked: true,
      maskedBy: "dashboard",
      person: { name: "M*** d*** S***", motherName: "A*** S***", birthDate: "****-**-**", pep: true },
    });
  });

  it("leaves no full CPF anywhere in the object, at any depth", () => {
    const text = JSON.stringify(maskVerification(unmasked()));
    expect(text).not.toMatch(/529\.?982\.?247-?25/);
    expect(text).not.toMatch(/Maria|Silva|Souza|1990-05-17/);
    // What is not personal stays as sent.
    expect(maskVerification(unmasked())).toMatchObject({ status: "review", identityScore: 71, extra: { count: 3 } });
  });

  it("keeps what the service masked as the service's, and is idempotent", () => {
    const fromService = { ...unmasked(), document: "***.982.247-**", documentMasked: true, person: { name: "M*** d*** S***" } };
    expect(maskVerification(fromService)).toMatchObject({
      document: "***.982.247-**",
      maskedBy: "service",
      person: { name: "M*** d*** S***" },
    });
    const once = maskVerification(unmasked());
    expect(maskVerification(once)).toEqual(once);
  });

  it("hands the key's answer through to a member holding personal_data.unmasked", () => {
    const original = unmasked();
    expect(verificationFor(original, true)).toBe(original);
    expect(verificationFor(original, false).document).toBe("***.982.247-**");
  });

  it("masks any document shape and any name", () => {
    expect(maskDocument("52998224725")).toBe("***.982.247-**");
    expect(maskDocument("RG 12.345.678-9")).toBe("** **.***.***-*");
    expect(maskName("  José   Ávila ")).toBe("J*** Á***");
  });
});
