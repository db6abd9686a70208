// The document's data beside the person's record (the case page's comparison): which values agree once written
// the same way. Shared (no server imports): the case page runs it on what the member may see.

import type { CpfLookupResponse } from "@/lib/lookups/types";
import type { CpfHistoryRecord, FederalRevenueRecord } from "@/lib/upstream/model/partners";
import type { Verification } from "@/lib/upstream/model/verification";

/**
 * `matches` / `differs` once normalised; `masked`: one side is masked (by the service or the dashboard), so
 * nothing can be said, never a difference; `missing`: one side holds no value.
 */
export type Verdict = "matches" | "differs" | "masked" | "missing";

type Kind = "cpf" | "name" | "date" | "flag";
type Value = string | boolean | null | undefined;

/** A value of the person: what the document says, or a record's value with its verdict against it. */
export interface RecordValue {
  value: string | boolean | null;
  verdict: Verdict;
}

export const COMPARED_FIELDS = ["cpf", "name", "birthDate", "motherName", "pep"] as const;
export type ComparedField = (typeof COMPARED_FIELDS)[number];

export interface ComparisonRow {
  field: ComparedField;
  document: string | boolean | null;
  /** Absent: that source holds no such field (the federal revenue record has no mother's name). */
  receita?: RecordValue;
  history?: RecordValue;
}

const KIND: Record<ComparedField, Kind> = { cpf: "cpf", name: "name", birthDate: "date", motherName: "name", pep: "flag" };

/** "  Mariana  Luíza " and "MARIANA LUIZA" read the same: accents, case, punctuation and spacing set aside. */
export function normaliseName(value: string): string {
  return value
    .normalize("NFD")
    .replace(/\p{M}/gu, "")
    .toLowerCase()
    .replace(/[^\p{L}\p{N}]+/gu, " ")
    .trim();
}

/**
 * A calendar date as YYYY-MM-DD, from the forms the sources write: `1988-04-17`, a timestamp starting with it,
 * `17/04/1988` or `17-04-1988` (day first, as in Brazil), `19880417`. Anything else: null.
 */
export function normaliseDate(value: string): string | null {
  const text = value.trim();
  const iso = /^(\d{4})-(\d{2})-(\d{2})(?:[T ].*)?$/.exec(text) ?? /^(\d{4})(\d{2})(\d{2})$/.exec(text);
  if (iso) return `${iso[1]}-${iso[2]}-${iso[3]}`;
  const dayFirst = /^(\d{1,2})[/.-](\d{1,2})[/.-](\d{4})$/.exec(text);
  if (dayFirst) return `${dayFirst[3]}-${dayFirst[2]!.padStart(2, "0")}-${dayFirst[1]!.padStart(2, "0")}`;
  return null;
}

function isMissing(value: Value): value is null | undefined {
  return value === null || value === undefined || (typeof value === "string" && value.trim() === "");
}

/** The service's and the dashboard's masks both hide with `*` (lib/upstream/model/masking.ts). */
function isMasked(value: string | boolean): boolean {
  return typeof value === "string" && value.includes("*");
}

function normalised(kind: Kind, value: string | boolean): string {
  const text = String(value);
  if (kind === "cpf") return text.replace(/\D/g, "");
  if (kind === "name") return normaliseName(text);
  if (kind === "date") return normaliseDate(text) ?? text.trim();
  return text;
}

/** The verdict on one field: a missing side first, then a masked one, then the normalised values. */
export function compareValues(kind: Kind, document: Value, record: Value): Verdict {
  if (isMissing(document) || isMissing(record)) return "missing";
  if (isMasked(document) || isMasked(record)) return "masked";
  return normalised(kind, document) === normalised(kind, record) ? "matches" : "differs";
}

/**
 * What the comparison reads of a verification: its document, the person's fields it compares, and whether (and by whom)
 * the document is masked. The server page hands the comparison's client code this, not the whole verification.
 */
export type RecordSubject = Pick<Verification, "publicId" | "document" | "documentMasked" | "maskedBy"> & {
  person: Pick<Verification["person"], "name" | "birthDate" | "motherName" | "pep">;
};

export function recordSubjectOf(verification: Verification): RecordSubject {
  const { name, birthDate, motherName, pep } = verification.person;
  const { publicId, document, documentMasked, maskedBy } = verification;
  return { publicId, document, documentMasked, maskedBy, person: { name, birthDate, motherName, pep } };
}

const documentValues = (verification: RecordSubject): Record<ComparedField, Value> => ({
  cpf: verification.document,
  name: verification.person.name,
  birthDate: verification.person.birthDate,
  motherName: verification.person.motherName,
  pep: verification.person.pep,
});

const receitaValues = (record: FederalRevenueRecord): Partial<Record<ComparedField, Value>> => ({
  cpf: record.cpf,
  name: record.name,
  birthDate: record.birthDate,
});

const historyValues = (record: CpfHistoryRecord): Record<ComparedField, Value> => ({
  cpf: record.cpf,
  name: record.name,
  birthDate: record.birthDate,
  motherName: record.motherName,
  pep: record.pep,
});

/** The comparison table: each field the document gives, beside each record looked up (none before a lookup). */
export function compareWithRecords(verification: RecordSubject, results: readonly CpfLookupResponse[] = []): ComparisonRow[] {
  const own = documentValues(verification);
  const sources = results.map((result) => ({
    source: result.source,
    values: result.source === "receita" ? receitaValues(result.record) : historyValues(result.record),
  }));
  return COMPARED_FIELDS.map((field) => {
    const row: ComparisonRow = { field, document: own[field] ?? null };
    for (const { source, values } of sources) {
      if (!(field in values)) continue;
      const value = values[field];
      row[source] = { value: value ?? null, verdict: compareValues(KIND[field], own[field], value) };
    }
    return row;
  });
}

/** Whether any record differs from the document (the table's summary line). */
export function hasDifference(rows: readonly ComparisonRow[]): boolean {
  return rows.some((row) => row.receita?.verdict === "differs" || row.history?.verdict === "differs");
}
