import {
  DOCUMENT_TYPES,
  VERIFICATION_FLOWS,
  VERIFICATION_JOURNEYS,
  VERIFICATION_STATUSES,
  type VerificationStatus,
} from "@/lib/upstream/model/verification";

import { isValidCpf } from "../shared/cpf";
import { readFields, type FieldRead, type FieldReader } from "../shared/read-fields";

// Shared by the list page (URL state), GET /api/verifications and the creation form / POST handler.

/** The order the filter form offers statuses and sorts them in a URL; the set itself is the domain's. */
export const KNOWN_STATUSES = [
  "approved",
  "review",
  "reproved",
  "started",
  "not_opened",
] as const satisfies readonly (typeof VERIFICATION_STATUSES)[number][];
export const KNOWN_FLOWS = VERIFICATION_FLOWS;

const accept = <T>(value: T): FieldRead<T> => ({ ok: true, value });
const refuse = (message: string): FieldRead<never> => ({ ok: false, message });

// Statuses are a closed set (refused here, before any call); flows and journeys are not shown in full:
// any plain token is accepted and the known ones offered.
const TOKEN = /^[a-z0-9][a-z0-9_-]{0,63}$/;
const ISO_DATE = /^\d{4}-\d{2}-\d{2}$/;

function readToken(value: unknown): FieldRead<string> {
  if (typeof value !== "string") return refuse("must be given once, as text");
  return TOKEN.test(value) ? accept(value) : refuse("must be a lowercase word (letters, digits, - or _)");
}

/** A calendar date as YYYY-MM-DD that exists (no 30 February). */
export function isIsoDate(value: string): boolean {
  if (!ISO_DATE.test(value)) return false;
  const time = Date.parse(`${value}T00:00:00Z`);
  return !Number.isNaN(time) && new Date(time).toISOString().startsWith(value);
}

function readDate(value: unknown): FieldRead<string> {
  if (typeof value !== "string") return refuse("must be given once, as text");
  if (!ISO_DATE.test(value)) return refuse("must be a date as YYYY-MM-DD");
  return isIsoDate(value) ? accept(value) : refuse("is not a real date");
}

function readStatuses(value: unknown): FieldRead<VerificationStatus[]> {
  const list = Array.isArray(value) ? value : [value];
  if (list.length > 10) return refuse("must name at most 10 statuses");
  const known = VERIFICATION_STATUSES as readonly unknown[];
  return list.every((item) => known.includes(item))
    ? accept(list as VerificationStatus[])
    : refuse(`must be one of ${VERIFICATION_STATUSES.join(", ")}`);
}

/** A whole number written in decimal digits only: `0x10`, `1e3`, `+5` or ` 7` are refused, not coerced. */
function readCount(min: number, max: number) {
  return (value: unknown): FieldRead<number> => {
    if (typeof value === "number" ? !Number.isInteger(value) : typeof value !== "string" || !/^\d{1,9}$/.test(value))
      return refuse("must be a whole number in decimal digits");
    const count = Number(value);
    return count >= min && count <= max ? accept(count) : refuse(`must be from ${min} to ${max}`);
  };
}

export const PAGE_SIZES = [10, 20, 50, 100] as const;

/**
 * The list filters, defined once: each key is the dashboard's name (URL, GET /api/verifications, the audit
 * details), `wire` is the core API's query parameter, and `kind` says how the value is read, written in a
 * URL or a query, sent upstream (lib/upstream/core.ts checks each kind) and kept on the audit trail
 * (lib/verifications/server/audit-details.ts). `read` checks one value: the same function in the browser (the
 * list's URL state) and on the server (GET /api/verifications), without zod, so no validation library
 * ships to the browser. The route, the core client, the URL and the audit details all derive from this
 * table, so a new filter is a line here, a control in the form and its messages.
 */
export const VERIFICATION_FILTERS = {
  status: { kind: "statuses", wire: "status", read: readStatuses },
  flow: { kind: "token", wire: "flow", read: readToken },
  journey: { kind: "token", wire: "journey", read: readToken },
  // `bound`: which end of the display-time-zone day the date stands for upstream (lib/verifications/dates.ts).
  from: { kind: "date", wire: "from", read: readDate, bound: "from" },
  to: { kind: "date", wire: "to", read: readDate, bound: "to" },
  // `capped`: the core client also holds it to its configured maximum page size (CORE_MAX_PER_PAGE).
  per_page: { kind: "count", wire: "per_page", read: readCount(1, 100), capped: true },
  // The wire name is the default of CORE_PAGE_PARAM; the core client sends the configured one.
  page: { kind: "count", wire: "page", read: readCount(1, 100_000) },
} as const satisfies Record<string, FilterDefinition>;

export interface FilterDefinition {
  kind: FilterKind;
  wire: string;
  read: (value: unknown) => FieldRead<unknown>;
  bound?: "from" | "to";
  capped?: boolean;
}

/** statuses: a list, comma-joined in URLs and queries; token: a free word; date: YYYY-MM-DD; count: a whole number. */
export type FilterKind = "statuses" | "token" | "date" | "count";
export type FilterKey = keyof typeof VERIFICATION_FILTERS;
export const FILTER_KEYS = Object.keys(VERIFICATION_FILTERS) as FilterKey[];
const FILTER_READERS: Record<string, FieldReader> = Object.fromEntries(FILTER_KEYS.map((key) => [key, VERIFICATION_FILTERS[key].read]));

/** A filter set as read: every key optional, values already checked. */
export type VerificationFilters = {
  [K in FilterKey]?: Extract<ReturnType<(typeof VERIFICATION_FILTERS)[K]["read"]>, { ok: true }>["value"];
};

/** A filter value as a URL or query parameter: lists comma-joined, everything else as text. */
export function filterParam(value: string | number | readonly string[]): string {
  return typeof value === "object" ? value.join(",") : String(value);
}

/**
 * Reads filters from a query string. `status` may come comma-separated or repeated; empty values count
 * as absent. Unknown parameters stay in the object so the strict schema names them.
 */
export function filtersFromSearchParams(params: URLSearchParams): Record<string, unknown> {
  const raw: Record<string, unknown> = {};
  for (const key of new Set(params.keys())) {
    const values = params.getAll(key).filter((value) => value !== "");
    if (values.length === 0) continue;
    const kind = (VERIFICATION_FILTERS as Record<string, FilterDefinition>)[key]?.kind;
    raw[key] = kind === "statuses" ? values.flatMap((value) => value.split(",")).filter(Boolean) : values.length === 1 ? values[0] : values;
  }
  return raw;
}

/** The inverse, for links and the URL bar: stable order, status comma-separated. */
export function filtersToSearchParams(filters: VerificationFilters): URLSearchParams {
  const params = new URLSearchParams();
  for (const key of FILTER_KEYS) {
    const value = filters[key];
    if (value !== undefined && filterParam(value) !== "") params.set(key, filterParam(value));
  }
  return params;
}

export { DOCUMENT_TYPES };

export interface CreateVerificationInput {
  schemaVersion: string;
  refId: string;
  document: { type: (typeof DOCUMENT_TYPES)[number]; number: string };
}

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
  unknownKeys(body, ["schemaVersion", "refId", "document"], "", problems);
  const schemaVersion = requiredText(body.schemaVersion, "schemaVersion", 32, problems);
  const refId = requiredText(body.refId, "refId", 128, problems);
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
  return { ok: true, value: { schemaVersion, refId, document: { type, number } } };
}

export const KNOWN_JOURNEYS = VERIFICATION_JOURNEYS;

/** Page size the dashboard asks for when the URL names none (always sent, so views are reproducible). */
export const DEFAULT_PAGE_SIZE = 20;

/**
 * ASSUMPTION: the contract only says `public_id` is a string. Ids seen are UUIDs; this accepts those and
 * any other token of letters, digits, `_` and `-`, and refuses anything that could change an upstream path
 * (`/`, `.`, `%`, `?`, `#`) before any call. The one definition: pages, routes and the core client use it.
 */
export const PUBLIC_ID_PATTERN = /^[A-Za-z0-9_-]{1,128}$/;

export function isPublicId(value: unknown): value is string {
  return typeof value === "string" && PUBLIC_ID_PATTERN.test(value);
}

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
