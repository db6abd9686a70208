/*
 * Domain types of verifications (core API), as the pages use them. Shared: no server imports, so React
 * components can import them. The wire format lives in lib/upstream/schemas.ts and is reshaped into these
 * types once, inside the client module. Dates are ISO 8601 strings so they survive JSON and hydration.
 */

/** The steps the contract names, in the order the UI shows them; any other step follows generically. */
export const KNOWN_STEPS = ["ocr", "liveness", "facematch"] as const;
export type KnownStepName = (typeof KNOWN_STEPS)[number];

/** Contract: only a facematch similarity of 80 % or higher counts as valid. */
export const FACEMATCH_VALID_SIMILARITY = 80;

export interface VerificationNotice {
  code?: string;
  message: string;
}

export interface VerificationStep {
  /** `ocr`, `liveness`, `facematch`, or a step name the contract does not show. */
  name: string;
  /** `approved` is the only state the contract shows; null when the upstream sent none. */
  state: string | null;
  /** Liveness. */
  score?: number;
  /** Facematch, a percentage (see FACEMATCH_VALID_SIMILARITY). */
  similarity?: number;
  notices: VerificationNotice[];
  /** Fields of the step the contract does not show, kept as sent. */
  extra: Record<string, unknown>;
}

/** The contract does not show the entry shape: `name`, `source`, `listedAt` are read when present. */
export interface RestrictiveListEntry {
  name?: string;
  source?: string;
  listedAt?: string;
  extra: Record<string, unknown>;
}

/**
 * ASSUMPTION: the contract says names, birth date and a PEP flag exist (masked without the unmasked
 * permission) but does not show their field names; they are read from `name`, `mother_name`,
 * `birth_date` and `pep` when present.
 */
export interface VerificationPerson {
  name?: string;
  motherName?: string;
  birthDate?: string;
  pep?: boolean;
}

export interface Verification {
  publicId: string;
  /** `123.456.789-09`, or masked `***.456.789-**` without the unmasked-data permission. */
  document: string;
  documentMasked: boolean;
  /** `approved` and `review` are the values the contract shows; others are kept as sent. */
  status: string;
  flow?: string;
  journey?: string;
  createdAt?: string;
  decidedAt?: string;
  /** Known steps first (ocr, liveness, facematch), then unknown steps in the upstream's order. */
  steps: VerificationStep[];
  identityScore: number | null;
  riskScore: number | null;
  pepOrigin: string | null;
  restrictiveLists: RestrictiveListEntry[];
  person: VerificationPerson;
  /** Fields the contract does not list, kept as sent. */
  extra: Record<string, unknown>;
}

export interface Pagination {
  page: number;
  perPage: number;
  total: number;
}

export interface VerificationList {
  items: Verification[];
  pagination: Pagination;
}

/** ASSUMPTION: the contract does not show the creation response; every field is optional. */
export interface CreatedVerification {
  publicId?: string;
  status?: string;
  refId?: string;
  createdAt?: string;
  extra: Record<string, unknown>;
}
