/*
 * Domain types of verifications (core API), as the pages use them. Shared: no server imports, so React
 * components can import them. The wire format lives in lib/upstream/core-validation.ts and is reshaped into these
 * types once, inside the client module. Dates are ISO 8601 strings so they survive JSON and hydration.
 */

/*
 * Closed sets, as the provider's public material gives them (docs/assumptions.md, each entry's source). Input is
 * validated against these; a value outside them from the service is still shown as sent.
 */

/** Legitimuz-Tech/legitimuz-core-documentation api/verification-statuses.mdx: five values, closed. */
export const VERIFICATION_STATUSES = ["not_opened", "started", "approved", "reproved", "review"] as const;
export type VerificationStatus = (typeof VERIFICATION_STATUSES)[number];
/** Same file: `decided_at` is filled only when the status is one of these. */
export const DECIDED_STATUSES = ["approved", "reproved"] as const;

/**
 * The one rule for "this verification is decided": the statuses that carry a decision (`decided_at`) and
 * close a case (docs/assumptions.md#case-final-statuses). Any other status is still open.
 */
export function isDecided(status: string | null | undefined): boolean {
  return status != null && (DECIDED_STATUSES as readonly string[]).includes(status);
}

/**
 * Whether the person's flow ended without them finishing it. api/verification-statuses.mdx (afcc2cb): expiry is not a
 * status; it is read by comparing `expires_at` with now, and the status keeps its last value. ASSUMPTION
 * (docs/assumptions.md#expiry): only a verification the person has not finished (neither decided nor in review,
 * whose part is done) counts as expired, which is how `verification.expired` ("expired without an outcome",
 * api/webhooks.mdx at afcc2cb) reads.
 */
export function isExpired(verification: Pick<Verification, "status" | "expiresAt">, now: Date): boolean {
  if (!verification.expiresAt || !canExpire(verification.status)) return false;
  const at = Date.parse(verification.expiresAt);
  return !Number.isNaN(at) && at <= now.getTime();
}

/** Whether a verification in this status is still the person's to finish, so its flow can expire (see `isExpired`). */
export function canExpire(status: string | null | undefined): boolean {
  return !isDecided(status) && status !== "review";
}

/** The documentation's event for a flow that ended without an outcome (api/webhooks.mdx). */
export const EXPIRED_EVENT = "verification.expired";
/**
 * ASSUMPTION (docs/assumptions.md#flows-journeys): `kyc-faceindex` is the flow the provider's iOS SDK names
 * (Legitimuz-Tech/legitimuz-sdk-ios Sources/LegitimuzSDKPackage/LegitimuzSDKPackage.swift); `default` and
 * `kyc-sow` (its `sow` verification type) are the sandbox's names for the others.
 */
export const VERIFICATION_FLOWS = ["default", "kyc-faceindex", "kyc-sow"] as const;
/** ASSUMPTION (docs/assumptions.md#flows-journeys): no journey set in the material; the sandbox's. */
export const VERIFICATION_JOURNEYS = ["onboarding", "recertification", "high-value"] as const;
/** Every creation example sends `document.type: "cpf"` (Legitimuz-Tech/legitimuz-examples pocs/*). */
export const DOCUMENT_TYPES = ["cpf"] as const;
/** Legitimuz-Tech/legitimuz-core-documentation api/webhooks.mdx. */
export const VERIFICATION_EVENTS = [
  "verification.created",
  "verification.updated",
  "verification.approved",
  "verification.reproved",
  "verification.review",
  "verification.expired",
] as const;
/**
 * Identity and risk scores run 0..100: the provider's webhook example carries identity_score 71 and
 * fraud_score 54 (api/webhooks.mdx). ASSUMPTION (docs/assumptions.md#scores) on the upper bound, which no page
 * states.
 */
export const SCORE_SCALE = 100;

/** The steps the contract names, in the order the UI shows them; any other step follows generically. */
export const KNOWN_STEPS = ["ocr", "liveness", "facematch"] as const;

/** Contract: only a facematch similarity of 80 % or higher counts as valid. */
export const FACEMATCH_VALID_SIMILARITY = 80;

export interface VerificationNotice {
  code?: string;
  message: string;
  /**
   * The service's text was withheld: a member without `personal_data.unmasked` gets a notice's code only, since
   * free text may name the person (lib/upstream/model/masking.ts). The page says so instead of showing it.
   */
  withheld?: true;
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

/**
 * ASSUMPTION (docs/assumptions.md#death-fields): the contract does not show a death field on verifications;
 * these names are read, as booleans, from the fields it does not list (`extra`) when present.
 */
export const DECEASED_FIELDS = ["deceased", "obito", "consta_obito"] as const;

/** The contract does not show the entry shape: `name`, `source`, `listedAt` are read when present. */
export interface RestrictiveListEntry {
  name?: string;
  source?: string;
  listedAt?: string;
  extra: Record<string, unknown>;
}

/**
 * ASSUMPTION (docs/assumptions.md#verification-fields): the contract says names, birth date and a PEP flag
 * exist (masked without the unmasked permission) but does not show their field names; they are read from
 * `name`, `mother_name`, `birth_date` and `pep` when present.
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
  /**
   * Who masked it: the service (the API key lacks the unmasked permission) or the dashboard (the member lacks
   * `personal_data.unmasked`: lib/upstream/model/masking.ts). Absent when nothing is masked.
   */
  maskedBy?: "service" | "dashboard";
  /** `approved` and `review` are the values the contract shows; others are kept as sent. */
  status: string;
  flow?: string;
  journey?: string;
  createdAt?: string;
  decidedAt?: string;
  /**
   * When the person's flow stops accepting them (api/verification-statuses.mdx: expiry is read from `expires_at`,
   * never from the status). See `isExpired`.
   */
  expiresAt?: string;
  /**
   * The service's review sub-state while the status is `review`: `open`, `assigned` or `decided`
   * (Legitimuz-Tech/legitimuz-core-documentation api/verification-statuses.mdx at afcc2cb; another value is kept as
   * sent). The page names no field: ASSUMPTION (docs/assumptions.md#review-state), `review_state`.
   */
  reviewState?: string;
  /**
   * The flow as creation takes it (`flow_public_id`), when the verification carries that field. ASSUMPTION
   * (docs/assumptions.md#creation-flow): no page shows it on a read verification; re-verification falls back on `flow`.
   */
  flowPublicId?: string;
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

/**
 * The creation answer `{verification: {public_id, status, ref_id, expires_at…}, entry: {kind, url}}`, as every
 * creation example of the provider reads it (Legitimuz-Tech/legitimuz-examples pocs/express-backend/server.ts,
 * pocs/resume-expiry, pocs/qr-handoff). A flat `{public_id…}` body is read too, and the documentation's `sdkUrl`
 * (legitimuz-core-documentation api/verifications.mdx: "the answer is the sdkUrl"): like `entry.url`, the flow's
 * credential, which never enters this object.
 */
export interface CreatedVerification {
  publicId?: string;
  status?: string;
  refId?: string;
  createdAt?: string;
  /** When the flow stops accepting the person (pocs/resume-expiry reads `verification.expires_at`). */
  expiresAt?: string;
  /** How the person enters the flow (`web`), when the answer says. The address itself stays on the server. */
  entryKind?: string;
  /** true when the service answered 200 to a repeat with the same ref_id and body: nothing new was created. */
  replayed: boolean;
  extra: Record<string, unknown>;
}
