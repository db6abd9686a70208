import { z } from "zod";

import { cpfSchema } from "@/lib/shared/cpf-schema";
import { phoneSchema, smsCodeSchema } from "@/lib/shared/phone";
import type { CpfHistoryRecord, FederalRevenueRecord, Integration, KycSession } from "@/lib/upstream/model/partners";
import { bool, extraFields, int, num, str, text, utcDate } from "@/lib/upstream/wire";

/* The partners API's resources on the wire (lib/upstream/wire.ts says how they are read), and their reshaping. */

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
// Reshaping: wire → domain

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

/**
 * ASSUMPTION (docs/assumptions.md#login): the contract does not show the login answer. The token is read from `token`, `access_token`
 * or `accessToken`, and an `expires_in` (seconds) is used when present.
 */
export const loginResponseWire = z
  .looseObject({
    token: z.string().min(1).optional(),
    access_token: z.string().min(1).optional(),
    accessToken: z.string().min(1).optional(),
    expires_in: z.number().positive().optional(),
  })
  .refine((body) => body.token ?? body.access_token ?? body.accessToken, { message: "no token in the login answer", path: ["token"] });

/** ASSUMPTION (docs/assumptions.md#sms-answers): the SMS answers are not shown; a 200 is success, `valid: false` is read. */
export const smsResponseWire = z.unknown();

// ---------------------------------------------------------------------------------------------------------
// Input schemas: bad input is refused before any call, naming the field (ZodError).

/**
 * A CPF, with or without punctuation; sent as its 11 digits (ASSUMPTION (docs/assumptions.md#cpf-format): the
 * contract shows no format).
 * The same rules as the forms use (lib/shared/cpf.ts), so the client refuses bad input even when
 * called directly.
 */
export const cpfInput = cpfSchema;

/** Digits with country code (contract), by the dashboard's one phone rule (lib/shared/phone.ts). */
export const phoneInput = phoneSchema;

/** The code received, by the dashboard's one SMS code rule (lib/shared/phone-rules.ts, docs/assumptions.md#sms-code). */
export const smsCodeInput = smsCodeSchema;

const smsMessage = z.string().min(1).max(480).optional();

export const createIntegrationInputSchema = z.object({
  domain: z.string().trim().min(1).max(253),
  label: z.string().trim().min(1).max(120),
});
export const kycSessionInputSchema = z.object({
  cpf: cpfInput,
  lang: z
    .string()
    .regex(/^[a-z]{2}(-[A-Z]{2})?$/, "must be a language tag like pt-BR")
    .optional(),
});
export const sendSmsInputSchema = z.object({ phone: phoneInput, message: smsMessage });
export const validateSmsInputSchema = z.object({
  phone: phoneInput,
  code: smsCodeInput,
  message: smsMessage,
});
