import { describe, expect, it } from "vitest";

import { maskCpfHistoryRecord, maskDocument, maskFederalRevenueRecord, maskName, maskVerification, verificationFor } from "./masking";
import type { CpfHistoryRecord, FederalRevenueRecord } from "./partners";
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
    // What the dashboard knows and classifies as safe stays as sent; fields it does not know are dropped.
    expect(maskVerification(unmasked())).toMatchObject({ status: "review", identityScore: 71, extra: {} });
  });

  it("is an allow-list: unknown fields, step extras and notice texts never reach a masked member, even without a CPF in them", () => {
    const withNewFields: Verification = {
      ...unmasked(),
      steps: [
        {
          name: "ocr",
          state: "approved",
          score: 91,
          notices: [{ code: "name_mismatch", message: "Nome lido: Maria da Silva, nascida em 17/05/1990" }, { message: "Maria da Silva" }],
          extra: { holder_name: "Maria da Silva", born: "1990-05-17" },
        },
      ],
      restrictiveLists: [{ name: "OFAC", source: "sanctions", extra: { listed_as: "Maria da Silva" } }],
      extra: { social_name: "Maria da Silva", nascimento: "17/05/1990", obito: true, consta_obito: "Maria da Silva" },
    };
    const masked = maskVerification(withNewFields);
    expect(JSON.stringify(masked)).not.toMatch(/Maria|Silva|1990|17\/05/);
    expect(masked.extra).toEqual({ obito: true });
    expect(masked.steps[0]).toEqual({
      name: "ocr",
      state: "approved",
      score: 91,
      notices: [
        { code: "name_mismatch", message: "", withheld: true },
        { message: "", withheld: true },
      ],
      extra: {},
    });
    expect(masked.restrictiveLists).toEqual([{ name: "OFAC", source: "sanctions", extra: {} }]);
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

describe("masking a CPF lookup's record", () => {
  const receita: FederalRevenueRecord = {
    cpf: "52998224725",
    checkDigits: "25",
    name: "Maria da Silva",
    socialName: "Mari Silva",
    birthDate: "1990-05-17",
    birthDateInvalidOnRecord: false,
    situation: "REGULAR",
    registeredAt: "2001-02-03",
    registeredBefore1990: false,
    issuedAt: "2026-01-01T10:00:00Z",
    deceased: false,
    deathYear: null,
    mobile: "11987654321",
    email: "maria@example.com",
    origin: "receita",
    normalizedNames: { first: "Maria", middle: "da", last: "Silva" },
    controlCode: "ABCD.1234.EFGH",
    qrCodeLink: "https://example.test/qr?cpf=52998224725",
    extra: { apelido: "Mariazinha" },
  };

  it("masks the federal revenue record's person and drops its unknown fields and receipt", () => {
    const masked = maskFederalRevenueRecord(receita);
    expect(JSON.stringify(masked)).not.toMatch(/Maria|Silva|1990-05|52998224725|98765|example|Mariazinha|ABCD/);
    expect(masked).toMatchObject({
      cpf: "***.982.247-**",
      name: "M*** d*** S***",
      birthDate: "****-**-**",
      situation: "REGULAR",
      extra: {},
    });
  });

  it("masks the enrichment's person (names, mother, birth date) and keeps its flags", () => {
    const history: CpfHistoryRecord = {
      cpf: "529.982.247-25",
      name: "Maria da Silva",
      motherName: "Ana Souza",
      birthDate: "1990-05-17",
      gender: "F",
      age: "36",
      nationality: "BR",
      sign: "Taurus",
      issuedAt: null,
      registeredAt: null,
      registeredBefore1990: false,
      checkDigits: "25",
      names: { exclusive: "Maria", first: "Maria", middle: "da", social: "Mari", last: "Silva" },
      deceased: false,
      origin: null,
      pep: true,
      situation: "REGULAR",
      state: "SP",
      extra: { pai: "Jose Silva" },
    };
    const masked = maskCpfHistoryRecord(history);
    expect(JSON.stringify(masked)).not.toMatch(/Maria|Silva|Souza|Mari\b|1990-05|529\.982\.247-25|Jose/);
    expect(masked).toMatchObject({ pep: true, state: "SP", checkDigits: null, extra: {} });
  });
});
