/*
 * Domain types of the partners API (integrations, CPF lookups, KYC sessions, SMS), as the pages use
 * them. Shared: no server imports. The contract says unknown values are empty strings; here they are
 * null, so the UI can say "unknown" instead of printing nothing.
 */

export interface Integration {
  id: number | null;
  userId: number | null;
  tenantId: number | null;
  label: string;
  /** A host without scheme, even when created with one. */
  domain: string;
  /** The key value: the `token` of KYC and federal revenue calls. Shown once, never stored. */
  uuid: string;
  createdAt: string | null;
  updatedAt: string | null;
}

/** CPF enrichment (`GET /kyc/cpf-history`, object `dados`). */
export interface CpfHistoryRecord {
  cpf: string | null;
  name: string | null;
  motherName: string | null;
  /** YYYY-MM-DD. */
  birthDate: string | null;
  gender: string | null;
  /** Age as the upstream wrote it (text). */
  age: string | null;
  nationality: string | null;
  sign: string | null;
  issuedAt: string | null;
  registeredAt: string | null;
  registeredBefore1990: boolean | null;
  checkDigits: string | null;
  names: {
    exclusive: string | null;
    first: string | null;
    middle: string | null;
    social: string | null;
    last: string | null;
  };
  deceased: boolean | null;
  origin: string | null;
  /** Politically exposed person. */
  pep: boolean | null;
  situation: string | null;
  /** `uf_cpf`: the state the CPF was registered in. */
  state: string | null;
  extra: Record<string, unknown>;
}

/** Federal revenue CPF record (`GET /receita-federal/cpf`, object `Result`). */
export interface FederalRevenueRecord {
  cpf: string | null;
  checkDigits: string | null;
  name: string | null;
  socialName: string | null;
  /** YYYY-MM-DD: the UTC date of the upstream's midnight timestamp (formatting it in a local zone would show the day before). */
  birthDate: string | null;
  birthDateInvalidOnRecord: boolean | null;
  situation: string | null;
  /** YYYY-MM-DD, like birthDate. */
  registeredAt: string | null;
  registeredBefore1990: boolean | null;
  /** ISO 8601 timestamp of the record's issue. */
  issuedAt: string | null;
  deceased: boolean | null;
  /** null when there is no death record (the upstream sends 0). */
  deathYear: number | null;
  mobile: string | null;
  email: string | null;
  origin: string | null;
  normalizedNames: { first: string | null; middle: string | null; last: string | null };
  controlCode: string | null;
  qrCodeLink: string | null;
  extra: Record<string, unknown>;
}

/** A started KYC session (`POST /kyc/get-sdk-url`). */
export interface KycSession {
  personId: number;
  /** Widget address: a path holding the session id, plus `token` and `lang` query parameters. */
  url: string;
  sessionId: string;
  /** `Iniciado` at creation. */
  status: string;
  validationStep: number | null;
  cpf: string | null;
  name: string | null;
  integrationId: number | null;
  tenantId: number | null;
  createdAt: string | null;
  updatedAt: string | null;
  /** `vp.meta.cliente`: the same record as the CPF enrichment. */
  client: CpfHistoryRecord | null;
}

export interface SmsSendResult {
  sent: true;
}

export interface SmsValidateResult {
  valid: boolean;
}
