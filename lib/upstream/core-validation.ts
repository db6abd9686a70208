import { z } from "zod";

import {
  KNOWN_STEPS,
  type CreatedVerification,
  type Pagination,
  type RestrictiveListEntry,
  type Verification,
  type VerificationNotice,
  type VerificationStep,
} from "@/lib/upstream/model/verification";
import { bool, extraFields, num, str, text } from "@/lib/upstream/wire";

/* The core API's resources on the wire (lib/upstream/wire.ts says how they are read), and their reshaping. */

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
  // legitimuz-core-documentation api/verification-statuses.mdx (afcc2cb): expiry is read from `expires_at`.
  expires_at: str,
  // ASSUMPTION (docs/assumptions.md#review-state): the review sub-state's field name; api/verification-statuses.mdx
  // (afcc2cb) names only its values.
  review_state: str,
  // ASSUMPTION (docs/assumptions.md#creation-flow): the creation field (legitimuz-examples pocs/express-backend/server.ts
  // at 7780eac), if a read verification carries it.
  flow_public_id: str,
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
 * pocs/express-backend/server.ts, pocs/resume-expiry/app/api/verificacoes/route.ts, pocs/qr-handoff/lib/stubs.ts),
 * and the documentation names the answer `sdkUrl` (Legitimuz-Tech/legitimuz-core-documentation
 * api/verifications.mdx, afcc2cb; the body itself "published when the contract closes"): both are read, at the
 * top. A flat body with the verification's fields at the top is read too, and an empty one stays legal (bodyOptional).
 */
export const createdVerificationWire = z
  .looseObject({
    ...createdFields,
    sdkUrl: str,
    verification: z.looseObject(createdFields).optional(),
    entry: z.looseObject({ kind: str, url: str }).optional(),
  })
  .optional();

// ---------------------------------------------------------------------------------------------------------
// Reshaping: wire → domain

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
  setText(verification, "expiresAt", raw.expires_at);
  setText(verification, "reviewState", raw.review_state);
  setText(verification, "flowPublicId", raw.flow_public_id);
  return verification;
}

export function reshapePagination(raw: z.infer<typeof paginationWire>): Pagination {
  return { page: raw.page, perPage: raw.per_page, total: raw.total };
}

// `sdkUrl` is the flow's credential (api/overview.mdx): listed here so it never lands in `extra`, which pages see.
const CREATED_KNOWN: ReadonlySet<string> = new Set([
  "public_id",
  "status",
  "ref_id",
  "created_at",
  "expires_at",
  "verification",
  "entry",
  "sdkUrl",
]);

export function reshapeCreatedVerification(raw: z.infer<typeof createdVerificationWire>, replayed = false): CreatedVerification {
  if (!raw) return { replayed, extra: {} };
  const { verification, entry, sdkUrl: _sdkUrl, ...top } = raw;
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
