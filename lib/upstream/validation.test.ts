import { describe, expect, it } from "vitest";

import {
  cpfHistoryResponseWire,
  federalRevenueResponseWire,
  kycSessionResponseWire,
  reshapeCpfHistory,
  reshapeFederalRevenue,
  reshapeKycSession,
  reshapeNotice,
  reshapeVerification,
  verificationFilesWire,
  verificationWire,
} from "@/lib/upstream/validation";

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

describe("partners records", () => {
  it("turns the CPF history's empty strings into null", () => {
    const { dados } = cpfHistoryResponseWire.parse({
      dados: {
        cpf: "12345678909",
        nome: "João",
        nome_mae: "",
        genero: "",
        idade: "44",
        data_nascimento: "1981-05-06",
        data_inscricao_antes_1990: false,
        outros_campos: {
          pep: true,
          obito: false,
          uf_cpf: "SP",
          nome: { primeiroNome: "João", nomeDoMeio: "", sobrenome: "Souza", nomeSocial: "" },
        },
        surprise: 1,
      },
    });
    expect(reshapeCpfHistory(dados)).toMatchObject({
      cpf: "12345678909",
      name: "João",
      motherName: null,
      gender: null,
      age: "44",
      birthDate: "1981-05-06",
      registeredBefore1990: false,
      pep: true,
      deceased: false,
      state: "SP",
      names: { first: "João", middle: null, last: "Souza", social: null },
      extra: { surprise: 1 },
    });
  });

  it("reads the federal revenue record: death year 0 is none, birth date is the UTC date", () => {
    const { Result } = federalRevenueResponseWire.parse({
      Result: {
        AnoObito: 0,
        ConstaObito: false,
        DataNascimento: "1980-02-03T00:00:00Z",
        DataInscricao: "1999-01-01T00:00:00Z",
        NomePessoaFisica: "MARIA SILVA",
        NumeroCpf: "52998224725",
        CodigoControleComprovante: null,
        QrCodeLink: null,
        Email: "",
      },
    });
    expect(reshapeFederalRevenue(Result)).toMatchObject({
      deathYear: null,
      deceased: false,
      birthDate: "1980-02-03",
      registeredAt: "1999-01-01",
      name: "MARIA SILVA",
      email: null,
      controlCode: null,
    });
  });

  it("reads a KYC session", () => {
    const session = reshapeKycSession(
      kycSessionResponseWire.parse({
        personId: 7,
        url: "http://w.test/widget/9f1c?token=t&lang=pt-BR",
        vp: {
          id: 7,
          cpf: "52998224725",
          session_id: "9f1c",
          status: "Iniciado",
          validation_step: 1,
          meta: { cliente: { nome: "A" }, status: "Iniciado" },
        },
      }),
    );
    expect(session).toMatchObject({ personId: 7, sessionId: "9f1c", status: "Iniciado", validationStep: 1, client: { name: "A" } });
  });
});
