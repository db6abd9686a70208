import { describe, expect, it } from "vitest";

import {
  cpfHistoryResponseWire,
  federalRevenueResponseWire,
  kycSessionResponseWire,
  reshapeCpfHistory,
  reshapeFederalRevenue,
  reshapeKycSession,
} from "@/lib/upstream/partners-validation";

/* The partners API's wire schemas accept what the contract shows; reshapers build the domain types. */

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
