import { z } from "zod";

import type { CpfHistoryRecord, FederalRevenueRecord, Integration, KycSession } from "@/lib/upstream/model/partners";
import {
  KNOWN_STEPS,
  type CreatedVerification,
  type Pagination,
  type RestrictiveListEntry,
  type Verification,
  type VerificationNotice,
  type VerificationStep,
} from "@/lib/upstream/model/verification";

/*
 * Zod schemas of the identity verification service's resources as they are on the wire, and the reshape
 * functions to the domain types (lib/upstream/model/). Shared: no server imports.
 *
 * Every object is loose (unknown fields pass through) because the contract lists the fields it shows,
 * not every field that exists. Fields the contract states are typed; the ones the pages cannot do
 * without are required, the rest are `nullish` so one absent detail does not turn a whole answer into a
 * "malformed response".
 */

const str = z.string().nullish();
const bool = z.boolean().nullish();
const num = z.number().nullish();
const int = z.number().int().nullish();

// ---------------------------------------------------------------------------------------------------------
// Partners API

export const integrationWire = z.looseObject({
  id: int,
  id_user: int,
  tenant_id: int,
  label: z.string(),
  domain: z.string(),
  uuid: z.string().min(1),
  created_at: str,
  updated_at: str,
});
export type IntegrationWire = z.infer<typeof integrationWire>;

/** POST /integrations: `message` is 'Successfully Processed!' and `type` 'insert'. */
export const createIntegrationResponseWire = z.looseObject({
  integration: integrationWire,
  message: str,
  type: str,
});

export const cpfHistoryWire = z.looseObject({
  cpf: str,
  data_emissao: str,
  data_inscricao: str,
  data_inscricao_antes_1990: bool,
  data_nascimento: str,
  digito_verificador: str,
  genero: str,
  idade: str,
  nacionalidade: str,
  nome: str,
  nome_mae: str,
  signo: str,
  outros_campos: z
    .looseObject({
      exclusive_name: str,
      nome: z.looseObject({ nomeDoMeio: str, nomeSocial: str, primeiroNome: str, sobrenome: str }).nullish(),
      obito: bool,
      origem: str,
      pep: bool,
      situacao: str,
      uf_cpf: str,
    })
    .nullish(),
});
export type CpfHistoryWire = z.infer<typeof cpfHistoryWire>;

/** GET /kyc/cpf-history. */
export const cpfHistoryResponseWire = z.looseObject({ dados: cpfHistoryWire });

export const federalRevenueWire = z.looseObject({
  AnoObito: num,
  Celular: str,
  CodigoControleComprovante: z.unknown(),
  ConstaObito: bool,
  DataEmissao: str,
  DataInscricao: str,
  DataInscricaoAnterior1990: bool,
  DataNascimento: str,
  DataNascimentoInvalidaExistente: bool,
  DigitoVerificador: str,
  Email: str,
  NomePessoaFisica: str,
  NomeSocial: str,
  NomesMeioNomeNorm: str,
  NumeroCpf: str,
  Origem: str,
  PrimeirosNomesNorm: str,
  QrCodeLink: z.unknown(),
  SituacaoCadastral: str,
  SobrenomesNorm: str,
});
export type FederalRevenueWire = z.infer<typeof federalRevenueWire>;

/** GET /receita-federal/cpf. */
export const federalRevenueResponseWire = z.looseObject({ Result: federalRevenueWire });

export const kycSessionWire = z.looseObject({
  id: z.number().int(),
  cpf: str,
  name: str,
  id_integration: int,
  tenant_id: int,
  session_id: z.string().min(1),
  status: z.string(),
  validation_step: int,
  meta: z.looseObject({ cliente: cpfHistoryWire.nullish(), status: str }).nullish(),
  created_at: str,
  updated_at: str,
});

/** POST /kyc/get-sdk-url. */
export const kycSessionResponseWire = z.looseObject({
  personId: z.number().int(),
  url: z.url(),
  vp: kycSessionWire,
});
export type KycSessionResponseWire = z.infer<typeof kycSessionResponseWire>;

// ---------------------------------------------------------------------------------------------------------
// Core API

export const stepWire = z.looseObject({
  state: str,
  score: num,
  similarity: num,
  notices: z.array(z.unknown()).nullish(),
});

export const verificationWire = z.looseObject({
  public_id: z.string().min(1),
  document: z.string(),
  status: z.string(),
  // Not in the contract's table but filterable (flow, journey) or sortable (created_at).
  flow: str,
  journey: str,
  created_at: str,
  decided_at: str,
  steps: z.looseObject({ ocr: stepWire.nullish(), liveness: stepWire.nullish(), facematch: stepWire.nullish() }).nullish(),
  identity_score: num,
  risk_score: num,
  pep_origin: str,
  // The contract writes "restrictive lists"; `restrictive_lists` is the assumed wire name (both are read).
  restrictive_lists: z.array(z.unknown()).nullish(),
  "restrictive lists": z.array(z.unknown()).nullish(),
  name: str,
  mother_name: str,
  birth_date: str,
  pep: bool,
});
export type VerificationWire = z.infer<typeof verificationWire>;

export const paginationWire = z.looseObject({
  page: z.number().int().nonnegative(),
  per_page: z.number().int().nonnegative(),
  total: z.number().int().nonnegative(),
});

/** GET /public/validations-persons. */
export const verificationListWire = z.looseObject({
  data: z.array(verificationWire),
  pagination: paginationWire,
});

/** One entry of the files operation: a signed URL that opens one file, valid `expires_in` seconds (300). */
export const verificationFileWire = z.looseObject({
  url: z.url(),
  expires_in: z.number().int().nonnegative(),
  file: z.looseObject({ public_id: z.string().min(1), type: z.string().min(1) }),
});
export type VerificationFileWire = z.infer<typeof verificationFileWire>;

/**
 * GET /public/validations-persons/{public_id}/files. `selfie` and `document_back` are in the contract;
 * the document-front key is not named there, so every other key is read as a possible file too
 * (lib/upstream/core.ts keeps the ones that are File | null).
 */
export const verificationFilesWire = z.looseObject({
  selfie: verificationFileWire.nullish(),
  document_back: verificationFileWire.nullish(),
});

const createdFields = { public_id: str, status: str, ref_id: str, created_at: str, expires_at: str };

/**
 * POST /public/verifications. The contract does not show the answer; the provider's examples all read
 * `{verification: {public_id, expires_at…}, entry: {kind, url}}` (Legitimuz-Tech/legitimuz-examples
 * pocs/express-backend/server.ts, pocs/resume-expiry/app/api/verificacoes/route.ts, pocs/qr-handoff/lib/stubs.ts).
 * A flat body with the same fields at the top is read too, and an empty one stays legal (bodyOptional).
 */
export const createdVerificationWire = z
  .looseObject({
    ...createdFields,
    verification: z.looseObject(createdFields).optional(),
    entry: z.looseObject({ kind: str, url: str }).optional(),
  })
  .optional();

// ---------------------------------------------------------------------------------------------------------
// Reshaping: wire → domain

/** The contract writes unknown values as empty strings; the domain uses null. */
function text(value: string | null | undefined): string | null {
  return typeof value === "string" && value.trim() !== "" ? value : null;
}

/** Fields of `raw` not in `known`, kept as sent. (A plain loop: every list row runs this for itself and its steps.) */
function extraFields(raw: Record<string, unknown>, known: ReadonlySet<string>): Record<string, unknown> {
  const extra: Record<string, unknown> = {};
  for (const key of Object.keys(raw)) if (!known.has(key)) extra[key] = raw[key];
  return extra;
}

/** The UTC calendar date of an ISO timestamp (or a plain date), for date-only facts like a birth date. */
function utcDate(value: string | null | undefined): string | null {
  const raw = text(value);
  if (!raw) return null;
  if (/^\d{4}-\d{2}-\d{2}$/.test(raw)) return raw;
  const date = new Date(raw);
  return Number.isNaN(date.getTime()) ? raw : date.toISOString().slice(0, 10);
}

export function reshapeIntegration(raw: IntegrationWire): Integration {
  return {
    id: raw.id ?? null,
    userId: raw.id_user ?? null,
    tenantId: raw.tenant_id ?? null,
    label: raw.label,
    domain: raw.domain,
    uuid: raw.uuid,
    createdAt: text(raw.created_at),
    updatedAt: text(raw.updated_at),
  };
}

const CPF_HISTORY_KNOWN: ReadonlySet<string> = new Set(Object.keys(cpfHistoryWire.shape));

export function reshapeCpfHistory(raw: CpfHistoryWire): CpfHistoryRecord {
  const other = raw.outros_campos;
  return {
    cpf: text(raw.cpf),
    name: text(raw.nome),
    motherName: text(raw.nome_mae),
    birthDate: utcDate(raw.data_nascimento),
    gender: text(raw.genero),
    age: text(raw.idade),
    nationality: text(raw.nacionalidade),
    sign: text(raw.signo),
    issuedAt: text(raw.data_emissao),
    registeredAt: text(raw.data_inscricao),
    registeredBefore1990: raw.data_inscricao_antes_1990 ?? null,
    checkDigits: text(raw.digito_verificador),
    names: {
      exclusive: text(other?.exclusive_name),
      first: text(other?.nome?.primeiroNome),
      middle: text(other?.nome?.nomeDoMeio),
      social: text(other?.nome?.nomeSocial),
      last: text(other?.nome?.sobrenome),
    },
    deceased: other?.obito ?? null,
    origin: text(other?.origem),
    pep: other?.pep ?? null,
    situation: text(other?.situacao),
    state: text(other?.uf_cpf),
    extra: extraFields(raw, CPF_HISTORY_KNOWN),
  };
}

const FEDERAL_REVENUE_KNOWN: ReadonlySet<string> = new Set(Object.keys(federalRevenueWire.shape));

function scalarText(value: unknown): string | null {
  if (typeof value === "string") return text(value);
  if (typeof value === "number" || typeof value === "boolean") return String(value);
  return null;
}

export function reshapeFederalRevenue(raw: FederalRevenueWire): FederalRevenueRecord {
  return {
    cpf: text(raw.NumeroCpf),
    checkDigits: text(raw.DigitoVerificador),
    name: text(raw.NomePessoaFisica),
    socialName: text(raw.NomeSocial),
    birthDate: utcDate(raw.DataNascimento),
    birthDateInvalidOnRecord: raw.DataNascimentoInvalidaExistente ?? null,
    situation: text(raw.SituacaoCadastral),
    registeredAt: utcDate(raw.DataInscricao),
    registeredBefore1990: raw.DataInscricaoAnterior1990 ?? null,
    issuedAt: text(raw.DataEmissao),
    deceased: raw.ConstaObito ?? null,
    // Contract: 0 when there is no death record.
    deathYear: raw.AnoObito ? raw.AnoObito : null,
    mobile: text(raw.Celular),
    email: text(raw.Email),
    origin: text(raw.Origem),
    normalizedNames: { first: text(raw.PrimeirosNomesNorm), middle: text(raw.NomesMeioNomeNorm), last: text(raw.SobrenomesNorm) },
    controlCode: scalarText(raw.CodigoControleComprovante),
    qrCodeLink: scalarText(raw.QrCodeLink),
    extra: extraFields(raw, FEDERAL_REVENUE_KNOWN),
  };
}

export function reshapeKycSession(raw: KycSessionResponseWire): KycSession {
  const vp = raw.vp;
  return {
    personId: raw.personId,
    url: raw.url,
    sessionId: vp.session_id,
    status: vp.status,
    validationStep: vp.validation_step ?? null,
    cpf: text(vp.cpf),
    name: text(vp.name),
    integrationId: vp.id_integration ?? null,
    tenantId: vp.tenant_id ?? null,
    createdAt: text(vp.created_at),
    updatedAt: text(vp.updated_at),
    client: vp.meta?.cliente ? reshapeCpfHistory(vp.meta.cliente) : null,
  };
}

/** Notices are "an array" in the contract, shape not shown: strings and `{code, message}`-like objects are read. */
export function reshapeNotice(notice: unknown): VerificationNotice {
  if (typeof notice === "string") return { message: notice };
  if (notice && typeof notice === "object") {
    const record = notice as Record<string, unknown>;
    const code = typeof record.code === "string" ? record.code : typeof record.code === "number" ? String(record.code) : undefined;
    const message = [record.message, record.description, record.text, record.detail].find((value) => typeof value === "string") as
      string | undefined;
    if (message !== undefined || code !== undefined) return { ...(code !== undefined ? { code } : {}), message: message ?? code ?? "" };
  }
  return { message: JSON.stringify(notice) ?? String(notice) };
}

const STEP_KNOWN: ReadonlySet<string> = new Set(Object.keys(stepWire.shape));

function reshapeStep(name: string, raw: z.infer<typeof stepWire>): VerificationStep {
  const step: VerificationStep = { name, state: text(raw.state), notices: [], extra: {} };
  if (typeof raw.score === "number") step.score = raw.score;
  if (typeof raw.similarity === "number") step.similarity = raw.similarity;
  step.notices = (raw.notices ?? []).map(reshapeNotice);
  step.extra = extraFields(raw, STEP_KNOWN);
  return step;
}

function reshapeSteps(raw: VerificationWire["steps"]): VerificationStep[] {
  if (!raw) return [];
  const steps: VerificationStep[] = [];
  for (const name of KNOWN_STEPS) {
    const step = raw[name];
    if (step) steps.push(reshapeStep(name, step));
  }
  // Steps the contract does not show are kept generically, when they look like a step at all.
  for (const [name, value] of Object.entries(raw)) {
    if ((KNOWN_STEPS as readonly string[]).includes(name)) continue;
    const step = stepWire.safeParse(value);
    if (step.success) steps.push(reshapeStep(name, step.data));
  }
  return steps;
}

function reshapeRestrictiveEntry(entry: unknown): RestrictiveListEntry {
  if (typeof entry === "string") return { name: entry, extra: {} };
  if (entry && typeof entry === "object" && !Array.isArray(entry)) {
    const { name, source, listed_at: listedAt, ...extra } = entry as Record<string, unknown>;
    return {
      ...(typeof name === "string" ? { name } : {}),
      ...(typeof source === "string" ? { source } : {}),
      ...(typeof listedAt === "string" ? { listedAt } : {}),
      extra,
    };
  }
  return { extra: { value: entry } };
}

const VERIFICATION_KNOWN: ReadonlySet<string> = new Set(Object.keys(verificationWire.shape));

/**
 * Sets `target[key]` when the value is a non-empty string: optional domain fields stay absent. Assigned
 * in place rather than spread from small objects, which costs every list row several allocations.
 */
function setText<T extends object>(target: T, key: keyof T & string, value: string | null | undefined): void {
  const kept = text(value);
  if (kept !== null) (target as Record<string, unknown>)[key] = kept;
}

export function reshapeVerification(raw: VerificationWire): Verification {
  const restrictive = raw.restrictive_lists ?? raw["restrictive lists"] ?? [];
  const person: Verification["person"] = {};
  setText(person, "name", raw.name);
  setText(person, "motherName", raw.mother_name);
  setText(person, "birthDate", raw.birth_date);
  if (typeof raw.pep === "boolean") person.pep = raw.pep;
  const verification: Verification = {
    publicId: raw.public_id,
    document: raw.document,
    // Masked documents carry asterisks (`***.000.000-**`).
    documentMasked: raw.document.includes("*"),
    status: raw.status,
    steps: reshapeSteps(raw.steps),
    identityScore: raw.identity_score ?? null,
    riskScore: raw.risk_score ?? null,
    pepOrigin: text(raw.pep_origin),
    restrictiveLists: restrictive.map(reshapeRestrictiveEntry),
    person,
    extra: extraFields(raw, VERIFICATION_KNOWN),
  };
  setText(verification, "flow", raw.flow);
  setText(verification, "journey", raw.journey);
  setText(verification, "createdAt", raw.created_at);
  setText(verification, "decidedAt", raw.decided_at);
  return verification;
}

export function reshapePagination(raw: z.infer<typeof paginationWire>): Pagination {
  return { page: raw.page, perPage: raw.per_page, total: raw.total };
}

const CREATED_KNOWN: ReadonlySet<string> = new Set(["public_id", "status", "ref_id", "created_at", "expires_at", "verification", "entry"]);

export function reshapeCreatedVerification(raw: z.infer<typeof createdVerificationWire>, replayed = false): CreatedVerification {
  if (!raw) return { replayed, extra: {} };
  const { verification, entry, ...top } = raw;
  const fields = verification ?? top;
  const created: CreatedVerification = {
    replayed,
    // The entry's address is the flow's credential (api/overview.mdx): it is not kept in `extra` either.
    extra: extraFields(fields, CREATED_KNOWN),
  };
  setText(created, "publicId", fields.public_id);
  setText(created, "status", fields.status);
  setText(created, "refId", fields.ref_id);
  setText(created, "createdAt", fields.created_at);
  setText(created, "expiresAt", fields.expires_at);
  setText(created, "entryKind", entry?.kind);
  return created;
}
