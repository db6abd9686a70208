import { isValidCpf } from "@/lib/shared/cpf";
import { readFields } from "@/lib/shared/read-fields";
import { hasUnsafeTextCharacters, UNSAFE_TEXT_MESSAGE } from "@/lib/shared/safe-text";
import { DOCUMENT_TYPES, VERIFICATION_JOURNEYS } from "@/lib/upstream/model/verification";
import {
  FILTER_KEYS,
  FILTER_READERS,
  filtersFromSearchParams,
  filtersToSearchParams,
  isPublicId,
  KNOWN_STATUSES,
  type VerificationFilters,
} from "@/lib/upstream/model/verification-query";

// Shared by the list page (URL state), GET /api/verifications and the creation form / POST handler.

export { DOCUMENT_TYPES };

export interface CreateVerificationInput {
  schemaVersion: string;
  refId: string;
  document: { type: (typeof DOCUMENT_TYPES)[number]; number: string };
  /** The flow to open, sent as `flow_public_id`; without it the integration's default flow applies. */
  flowPublicId?: string;
}

/**
 * The `schema_version` the dashboard sends unless told otherwise: every creation example of the provider sends
 * "1.0" (Legitimuz-Tech/legitimuz-examples pocs/express-backend/server.ts at 7780eac, pocs/resume-expiry and
 * pocs/next-checkout at dec4b2c; docs/assumptions.md#schema-version).
 */
export const DEFAULT_SCHEMA_VERSION = "1.0";

const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === "object" && value !== null && !Array.isArray(value);

/** A required text field, trimmed, at most `max` characters; undefined when refused (the problem is pushed). */
function requiredText(value: unknown, field: string, max: number, problems: InputProblem[]): string | undefined {
  const text = typeof value === "string" ? value.trim() : undefined;
  if (text === undefined)
    problems.push(
      value === undefined ? { field, message: "is required", code: "required" } : { field, message: "must be text", code: "invalid" },
    );
  else if (text === "") problems.push({ field, message: "is required", code: "required" });
  else if (text.length > max) problems.push({ field, message: `must be at most ${max} characters`, code: "too_long" });
  else return text;
  return undefined;
}

// Control characters (C0, DEL, C1): a line break or tab in a reference splits it in exports and logs.
const CONTROL = /[\u0000-\u001f\u007f-\u009f]/;

/**
 * A reference others read (the ref_id shows on the list, the trail and every export): no control character and
 * nothing invisible or text-direction-changing (lib/shared/safe-text.ts). Undefined when refused (pushed).
 */
function plainReference(value: string | undefined, field: string, problems: InputProblem[]): string | undefined {
  if (value === undefined) return undefined;
  if (CONTROL.test(value)) problems.push({ field, message: "must not contain line breaks, tabs or control characters", code: "invalid" });
  else if (hasUnsafeTextCharacters(value)) problems.push({ field, message: UNSAFE_TEXT_MESSAGE, code: "invalid" });
  else return value;
  return undefined;
}

function unknownKeys(value: Record<string, unknown>, known: readonly string[], prefix: string, problems: InputProblem[]): void {
  for (const key of Object.keys(value))
    if (!known.includes(key)) problems.push({ field: `${prefix}${key}`, message: "is not accepted", code: "not_accepted" });
}

/**
 * The creation body, for the form and POST /api/verifications alike. Strict: `integration_origin_public_id`
 * (removed by the service) or any other unknown field is refused here, by name, before any call.
 */
export function parseCreateVerificationInput(
  body: unknown,
): { ok: true; value: CreateVerificationInput } | { ok: false; problems: InputProblem[] } {
  if (!isRecord(body)) return { ok: false, problems: [{ field: "(input)", message: "must be an object", code: "invalid" }] };
  const problems: InputProblem[] = [];
  unknownKeys(body, ["schemaVersion", "refId", "document", "flowPublicId"], "", problems);
  const schemaVersion = requiredText(body.schemaVersion, "schemaVersion", 32, problems);
  const refId = plainReference(requiredText(body.refId, "refId", 128, problems), "refId", problems);
  const flowPublicId = optionalFlowId(body.flowPublicId, problems);
  const document = body.document;
  let type: CreateVerificationInput["document"]["type"] | undefined;
  let number: string | undefined;
  if (!isRecord(document))
    problems.push(
      document === undefined
        ? { field: "document", message: "is required", code: "required" }
        : { field: "document", message: "must be an object", code: "invalid" },
    );
  else {
    unknownKeys(document, ["type", "number"], "document.", problems);
    if ((DOCUMENT_TYPES as readonly unknown[]).includes(document.type)) type = document.type as typeof type;
    else problems.push({ field: "document.type", message: `must be one of ${DOCUMENT_TYPES.join(", ")}`, code: "invalid" });
    number = requiredText(document.number, "document.number", 64, problems);
    if (type === "cpf" && number !== undefined && !isValidCpf(number)) {
      problems.push({ field: "document.number", message: "is not a valid CPF", code: "invalid_cpf" });
      number = undefined;
    }
  }
  if (problems.length || schemaVersion === undefined || refId === undefined || type === undefined || number === undefined)
    return { ok: false, problems };
  return { ok: true, value: { schemaVersion, refId, document: { type, number }, ...(flowPublicId ? { flowPublicId } : {}) } };
}

/** An optional flow id, validated like a verification's id (it names a flow at the service); empty is none. */
function optionalFlowId(value: unknown, problems: InputProblem[]): string | undefined {
  if (value === undefined || value === null) return undefined;
  if (typeof value !== "string") {
    problems.push({ field: "flowPublicId", message: "must be text", code: "invalid" });
    return undefined;
  }
  const id = value.trim();
  if (id === "") return undefined;
  if (isPublicId(id)) return id;
  problems.push({ field: "flowPublicId", message: "must be a flow id (letters, digits, _ or -, at most 128)", code: "invalid" });
  return undefined;
}

export const KNOWN_JOURNEYS = VERIFICATION_JOURNEYS;

/** Page size the dashboard asks for when the URL names none (always sent, so views are reproducible). */
export const DEFAULT_PAGE_SIZE = 20;

export interface InputProblem {
  /** The parameter or field, e.g. `per_page`, `document.number`; an unknown key is named as sent. */
  field: string;
  message: string;
  /** What kind of refusal, for a form's translated message; the English `message` is the API's. */
  code?: ProblemCode;
}

export type ProblemCode = "required" | "too_long" | "invalid_cpf" | "not_accepted" | "invalid";

/** Stable form of a filter set: the same view always gives the same query key and the same URL. */
export function normalizeFilters(filters: VerificationFilters): VerificationFilters {
  const rank = (value: string) => {
    const index = (KNOWN_STATUSES as readonly string[]).indexOf(value);
    return index === -1 ? KNOWN_STATUSES.length : index;
  };
  const out: Record<string, unknown> = {};
  for (const key of FILTER_KEYS) {
    const value = filters[key];
    if (value === undefined || value === "" || (Array.isArray(value) && value.length === 0)) continue;
    out[key] = Array.isArray(value) ? [...new Set(value)].sort((a, b) => rank(a) - rank(b) || a.localeCompare(b)) : value;
  }
  return withPaging(out as VerificationFilters, filters);
}

/** Paging defaults: the page size is always explicit (views are reproducible), page 1 is the same as none. */
function withPaging(out: VerificationFilters, filters: VerificationFilters): VerificationFilters {
  delete out.page;
  out.per_page = filters.per_page ?? DEFAULT_PAGE_SIZE;
  if (filters.page && filters.page > 1) out.page = filters.page;
  return out;
}

export type FilterParseResult = { ok: true; filters: VerificationFilters } | { ok: false; problems: InputProblem[] };

/** A query string → normalised filters, or every problem named (unknown parameters included). */
export function parseVerificationFilters(params: URLSearchParams): FilterParseResult {
  const { values, problems } = readFields(filtersFromSearchParams(params), FILTER_READERS);
  const filters = values as VerificationFilters;
  const { from, to } = filters;
  if (from && to && from > to) problems.push({ field: "from", message: "must not be after `to`", code: "invalid" });
  if (problems.length) return { ok: false, problems };
  return { ok: true, filters: normalizeFilters(filters) };
}

/** The URL of a filtered view, without the defaults (page 1, the default page size). */
export function filtersToUrlQuery(filters: VerificationFilters): string {
  const { per_page: perPage, ...rest } = normalizeFilters(filters);
  return filtersToSearchParams(perPage === DEFAULT_PAGE_SIZE ? rest : { ...rest, per_page: perPage }).toString();
}
