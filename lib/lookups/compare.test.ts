import { describe, expect, it } from "vitest";

import type { CpfLookupResponse } from "@/lib/lookups/types";
import { maskCpfHistoryRecord, maskFederalRevenueRecord, maskVerification } from "@/lib/upstream/model/masking";
import type { CpfHistoryRecord, FederalRevenueRecord } from "@/lib/upstream/model/partners";
import { verificationFixture } from "@/test/verification-fixtures";

import { compareValues, compareWithRecords, hasDifference, normaliseDate, normaliseName, type ComparisonRow } from "./compare";

const VERIFICATION = verificationFixture();

const RECEITA: FederalRevenueRecord = {
  cpf: "52998224725",
  checkDigits: "25",
  name: "MARIANA LUIZA COSTA RIBEIRO",
  socialName: null,
  birthDate: "1988-04-17",
  birthDateInvalidOnRecord: false,
  situation: "REGULAR",
  registeredAt: "2006-01-10",
  registeredBefore1990: false,
  issuedAt: "2024-05-02T10:00:00Z",
  deceased: false,
  deathYear: null,
  mobile: null,
  email: null,
  origin: "RECEITA FEDERAL",
  normalizedNames: { first: "MARIANA", middle: "LUIZA COSTA", last: "RIBEIRO" },
  controlCode: null,
  qrCodeLink: null,
  extra: {},
};

const HISTORY: CpfHistoryRecord = {
  cpf: "52998224725",
  name: "MARIANA LUIZA COSTA RIBEIRO",
  motherName: "HELENA ALMEIDA COSTA",
  birthDate: "1988-04-17",
  gender: "F",
  age: "38",
  nationality: "BRASILEIRA",
  sign: null,
  issuedAt: null,
  registeredAt: null,
  registeredBefore1990: null,
  checkDigits: "25",
  names: { exclusive: null, first: null, middle: null, social: null, last: null },
  deceased: false,
  origin: null,
  pep: false,
  situation: "REGULAR",
  state: "RJ",
  extra: {},
};

const receita = (record: Partial<FederalRevenueRecord> = {}): CpfLookupResponse => ({
  source: "receita",
  record: { ...RECEITA, ...record },
});
const history = (record: Partial<CpfHistoryRecord> = {}): CpfLookupResponse => ({ source: "history", record: { ...HISTORY, ...record } });
const row = (rows: ComparisonRow[], field: ComparisonRow["field"]) => rows.find((entry) => entry.field === field)!;

describe("normalisation", () => {
  it("sets aside accents, case, punctuation and spacing in names", () => {
    expect(normaliseName("  Mariana   Luíza  Costa-Ribeiro ")).toBe("mariana luiza costa ribeiro");
    expect(normaliseName("JOÃO D'ÁVILA")).toBe(normaliseName("João D Ávila"));
  });

  it("reads a date written as the sources write it, day first when slashed", () => {
    for (const form of ["1988-04-17", "1988-04-17T00:00:00Z", "17/04/1988", "17-04-1988", "19880417", "17.4.1988"]) {
      expect(normaliseDate(form)).toBe("1988-04-17");
    }
    expect(normaliseDate("April 1988")).toBeNull();
  });
});

describe("one field", () => {
  it("matches once normalised, and differs otherwise", () => {
    expect(compareValues("name", "Mariana Luíza Costa Ribeiro", "MARIANA LUIZA COSTA RIBEIRO")).toBe("matches");
    expect(compareValues("name", "Mariana Luíza Costa", "MARIANA LUIZA COSTA RIBEIRO")).toBe("differs");
    expect(compareValues("date", "17/04/1988", "1988-04-17")).toBe("matches");
    expect(compareValues("date", "1988-04-18", "1988-04-17")).toBe("differs");
    expect(compareValues("cpf", "529.982.247-25", "52998224725")).toBe("matches");
    expect(compareValues("flag", true, false)).toBe("differs");
  });

  it("never calls a masked value a difference, on either side", () => {
    expect(compareValues("name", "M*** L*** C*** R***", "SEBASTIAO PEREIRA LIMA")).toBe("masked");
    expect(compareValues("date", "1941-09-02", "****-**-**")).toBe("masked");
    expect(compareValues("cpf", "***.982.247-**", "11144477735")).toBe("masked");
  });

  it("says a side holds nothing rather than comparing it", () => {
    expect(compareValues("name", undefined, "MARIANA")).toBe("missing");
    expect(compareValues("name", "Mariana", null)).toBe("missing");
    expect(compareValues("name", "Mariana", "   ")).toBe("missing");
    // Missing wins over masked: there is nothing behind the mask to compare.
    expect(compareValues("name", "M***", null)).toBe("missing");
  });
});

describe("the table", () => {
  it("before a lookup: the document's fields only", () => {
    const rows = compareWithRecords(VERIFICATION);
    expect(rows.map((entry) => entry.field)).toEqual(["cpf", "name", "birthDate", "motherName", "pep"]);
    expect(rows.every((entry) => entry.receita === undefined && entry.history === undefined)).toBe(true);
    expect(hasDifference(rows)).toBe(false);
  });

  it("the same person in both records: every field matches", () => {
    const rows = compareWithRecords(VERIFICATION, [receita(), history()]);
    for (const entry of rows) {
      expect(entry.history?.verdict, entry.field).toBe("matches");
      if (entry.receita) expect(entry.receita.verdict, entry.field).toBe("matches");
    }
    expect(hasDifference(rows)).toBe(false);
  });

  it("the federal revenue record has no mother's name or PEP flag: no cell, not a difference", () => {
    const rows = compareWithRecords(VERIFICATION, [receita()]);
    expect(row(rows, "motherName").receita).toBeUndefined();
    expect(row(rows, "pep").receita).toBeUndefined();
    expect(row(rows, "name").receita).toEqual({ value: "MARIANA LUIZA COSTA RIBEIRO", verdict: "matches" });
  });

  it("a record that differs is named by field and source", () => {
    const rows = compareWithRecords(VERIFICATION, [
      receita({ birthDate: "1988-04-18" }),
      history({ motherName: "JOSEFA MARIA PEREIRA", pep: true }),
    ]);
    expect(row(rows, "birthDate").receita?.verdict).toBe("differs");
    expect(row(rows, "birthDate").history?.verdict).toBe("matches");
    expect(row(rows, "motherName").history).toEqual({ value: "JOSEFA MARIA PEREIRA", verdict: "differs" });
    expect(row(rows, "pep").history?.verdict).toBe("differs");
    expect(hasDifference(rows)).toBe(true);
  });

  it("masked by the dashboard on both sides: nothing compared but the PEP flag, which no mask hides", () => {
    const rows = compareWithRecords(maskVerification(VERIFICATION), [
      { source: "receita", record: maskFederalRevenueRecord({ ...RECEITA, name: "OUTRA PESSOA" }), maskedBy: "dashboard" },
      { source: "history", record: maskCpfHistoryRecord(HISTORY), maskedBy: "dashboard" },
    ]);
    for (const field of ["cpf", "name", "birthDate", "motherName"] as const) expect(row(rows, field).history?.verdict).toBe("masked");
    expect(row(rows, "name").receita?.verdict).toBe("masked");
    expect(row(rows, "pep").history?.verdict).toBe("matches");
    expect(hasDifference(rows)).toBe(false);
  });

  it("a field the document does not give is missing, not a difference", () => {
    const rows = compareWithRecords({ ...VERIFICATION, person: { name: "Mariana Luíza Costa Ribeiro" } }, [history()]);
    expect(row(rows, "birthDate")).toMatchObject({ document: null, history: { verdict: "missing" } });
    expect(row(rows, "pep").history?.verdict).toBe("missing");
  });
});
