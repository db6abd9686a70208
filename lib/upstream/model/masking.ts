/*
 * The dashboard's own masking (docs/security.md#sensitive-data): a member without `personal_data.unmasked`
 * sees document, names and birth date masked, whatever the API key returns. One function for every path
 * (list, detail, export, search, CPF lookups); applied on the server before anything leaves, so neither the page
 * HTML nor the react-query cache ever holds the unmasked value. Shared (no server imports): pure, so a test can run it on
 * any shape. The masks are the service's own (what it answers a key without the unmasked permission):
 * `***.456.789-**`, the first letter of each word then `***`, `****-**-**`.
 */

import type { CpfHistoryRecord, FederalRevenueRecord } from "./partners";
import {
  DECEASED_FIELDS,
  type RestrictiveListEntry,
  type Verification,
  type VerificationNotice,
  type VerificationPerson,
  type VerificationStep,
} from "./verification";

export const MASKED_BIRTH_DATE = "****-**-**";

/** "123.456.789-09" (any punctuation) → "***.456.789-**"; any other document keeps no letter or digit. */
export function maskDocument(document: string): string {
  if (document.includes("*")) return document;
  const digits = document.replace(/\D/g, "");
  if (digits.length === 11) return `***.${digits.slice(3, 6)}.${digits.slice(6, 9)}-**`;
  return document.replace(/[A-Za-z0-9]/g, "*");
}

/** "Maria da Silva" → "M*** d*** S***". */
export function maskName(name: string): string {
  return name
    .split(/\s+/)
    .filter((word) => word !== "")
    .map((word) => (word.includes("*") ? word : `${[...word][0]}***`))
    .join(" ");
}

/** A birth date, or any date of the person, masked as the service masks it. */
function maskDate(value: string): string {
  return value.includes("*") ? value : MASKED_BIRTH_DATE;
}

/*
 * An allow-list, not a scrub: a masked member gets only the fields below, each classified as safe (kept), personal
 * (masked) or unknown (dropped). A field the service adds (an `extra` entry, a step's or a list entry's unknown
 * field) reaches them only once it is named here; free text the service writes (a notice's message) is withheld,
 * its code kept. Each object is built field by field (never spread from the key's answer), so a field added to the
 * domain types is a compile error here until it is classified.
 */

/** Fields the service adds to a verification that the dashboard reads and classifies as safe: the death flags, booleans only. */
function safeExtra(extra: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(DECEASED_FIELDS.filter((key) => typeof extra[key] === "boolean").map((key) => [key, extra[key]]));
}

/** Sets only the optional fields that hold a value, so a masked object has no `undefined` keys. */
function present<T extends object>(value: T): T {
  return Object.fromEntries(Object.entries(value).filter(([, inner]) => inner !== undefined)) as T;
}

function maskNotice(notice: VerificationNotice): VerificationNotice {
  return present({ code: notice.code, message: "", withheld: true as const });
}

function maskStep(step: VerificationStep): VerificationStep {
  return present({
    name: step.name,
    state: step.state,
    score: step.score,
    similarity: step.similarity,
    notices: step.notices.map(maskNotice),
    extra: {},
  });
}

function maskListEntry(entry: RestrictiveListEntry): RestrictiveListEntry {
  // `name` is the list's (OFAC, CEIS…), never the person's.
  return present({ name: entry.name, source: entry.source, listedAt: entry.listedAt, extra: {} });
}

function maskPerson(person: VerificationPerson): VerificationPerson {
  return present({
    name: person.name === undefined ? undefined : maskName(person.name),
    motherName: person.motherName === undefined ? undefined : maskName(person.motherName),
    birthDate: person.birthDate === undefined ? undefined : maskDate(person.birthDate),
    pep: person.pep,
  });
}

/** The verification as a member without `personal_data.unmasked` may see it. Idempotent. */
export function maskVerification(verification: Verification): Verification {
  return present({
    publicId: verification.publicId,
    document: maskDocument(verification.document),
    documentMasked: true,
    maskedBy: verification.documentMasked ? (verification.maskedBy ?? "service") : "dashboard",
    status: verification.status,
    flow: verification.flow,
    journey: verification.journey,
    createdAt: verification.createdAt,
    decidedAt: verification.decidedAt,
    // Times and the service's own states: nothing about the person.
    expiresAt: verification.expiresAt,
    reviewState: verification.reviewState,
    flowPublicId: verification.flowPublicId,
    steps: verification.steps.map(maskStep),
    identityScore: verification.identityScore,
    riskScore: verification.riskScore,
    pepOrigin: verification.pepOrigin,
    restrictiveLists: verification.restrictiveLists.map(maskListEntry),
    person: maskPerson(verification.person),
    extra: safeExtra(verification.extra),
  } satisfies Record<keyof Verification, unknown>);
}

/** What the member may see: the verification as the key gave it, or masked by the dashboard. */
export function verificationFor(verification: Verification, unmasked: boolean): Verification {
  return unmasked ? verification : maskVerification(verification);
}

const maskedText = (value: string | null) => (value === null ? null : value.replace(/[\p{L}\p{N}]/gu, "*"));
const maskedName = (value: string | null) => (value === null ? null : maskName(value));
const maskedCpf = (value: string | null) => (value === null ? null : maskDocument(value));
const maskedDate = (value: string | null) => (value === null ? null : maskDate(value));

/**
 * The federal revenue record as a member without `personal_data.unmasked` may see it: the CPF, names, birth date,
 * phone and email masked; the check digits, control code and receipt link (which carry the CPF) and unknown fields
 * dropped; the situation, the death and the dates of the registration itself kept.
 */
export function maskFederalRevenueRecord(record: FederalRevenueRecord): FederalRevenueRecord {
  return {
    cpf: maskedCpf(record.cpf),
    checkDigits: null,
    name: maskedName(record.name),
    socialName: maskedName(record.socialName),
    birthDate: maskedDate(record.birthDate),
    birthDateInvalidOnRecord: record.birthDateInvalidOnRecord,
    situation: record.situation,
    registeredAt: record.registeredAt,
    registeredBefore1990: record.registeredBefore1990,
    issuedAt: record.issuedAt,
    deceased: record.deceased,
    deathYear: record.deathYear,
    mobile: maskedText(record.mobile),
    email: maskedText(record.email),
    origin: record.origin,
    normalizedNames: {
      first: maskedName(record.normalizedNames.first),
      middle: maskedName(record.normalizedNames.middle),
      last: maskedName(record.normalizedNames.last),
    },
    controlCode: null,
    qrCodeLink: null,
    extra: {},
  } satisfies Record<keyof FederalRevenueRecord, unknown>;
}

/** The CPF enrichment as a member without `personal_data.unmasked` may see it (same rule as the federal revenue record). */
export function maskCpfHistoryRecord(record: CpfHistoryRecord): CpfHistoryRecord {
  return {
    cpf: maskedCpf(record.cpf),
    name: maskedName(record.name),
    motherName: maskedName(record.motherName),
    birthDate: maskedDate(record.birthDate),
    gender: record.gender,
    age: record.age,
    nationality: record.nationality,
    sign: record.sign,
    issuedAt: record.issuedAt,
    registeredAt: record.registeredAt,
    registeredBefore1990: record.registeredBefore1990,
    checkDigits: null,
    names: {
      exclusive: maskedName(record.names.exclusive),
      first: maskedName(record.names.first),
      middle: maskedName(record.names.middle),
      social: maskedName(record.names.social),
      last: maskedName(record.names.last),
    },
    deceased: record.deceased,
    origin: record.origin,
    pep: record.pep,
    situation: record.situation,
    state: record.state,
    extra: {},
  } satisfies Record<keyof CpfHistoryRecord, unknown>;
}
