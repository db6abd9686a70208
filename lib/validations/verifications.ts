import { z } from "zod";

import { DOCUMENT_TYPES, VERIFICATION_FLOWS, VERIFICATION_JOURNEYS, VERIFICATION_STATUSES } from "@/lib/domain/verification";

import { isValidCpf } from "./cpf";

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

// Statuses are a closed set (refused here, before any call); flows and journeys are not shown in full:
// any plain token is accepted and the known ones offered.
const token = z.string().regex(/^[a-z0-9][a-z0-9_-]{0,63}$/, "must be a lowercase word (letters, digits, - or _)");
const isoDate = z
  .string()
  .regex(/^\d{4}-\d{2}-\d{2}$/, { message: "must be a date as YYYY-MM-DD", abort: true })
  .refine(
    (value) => !Number.isNaN(Date.parse(`${value}T00:00:00Z`)) && new Date(`${value}T00:00:00Z`).toISOString().startsWith(value),
    "is not a real date",
  );

export const PAGE_SIZES = [10, 20, 50, 100] as const;

/** A whole number written in decimal digits only: `0x10`, `1e3`, `+5` or ` 7` are refused, not coerced. */
const decimalInt = z
  .union([z.number().int("must be a whole number"), z.string().regex(/^\d{1,9}$/, "must be a whole number in decimal digits")])
  .transform(Number);

/**
 * The list filters, defined once: each key is the dashboard's name (URL, GET /api/verifications, the audit
 * details), `wire` is the core API's query parameter, and `kind` says how the value is read, written in a
 * URL or a query, sent upstream (lib/upstream/core.ts checks each kind) and kept on the audit trail
 * (lib/verifications/audit-details.ts). The route, the core client, the URL and the audit details all
 * derive from this table, so a new filter is a line here, a control in the form and its messages.
 */
export const VERIFICATION_FILTERS = {
  status: {
    kind: "statuses",
    wire: "status",
    schema: z.array(z.enum(VERIFICATION_STATUSES, { error: `must be one of ${VERIFICATION_STATUSES.join(", ")}` })).max(10),
  },
  flow: { kind: "token", wire: "flow", schema: token },
  journey: { kind: "token", wire: "journey", schema: token },
  // `bound`: which end of the display-time-zone day the date stands for upstream (lib/verifications/dates.ts).
  from: { kind: "date", wire: "from", schema: isoDate, bound: "from" },
  to: { kind: "date", wire: "to", schema: isoDate, bound: "to" },
  // `capped`: the core client also holds it to its configured maximum page size (CORE_MAX_PER_PAGE).
  per_page: { kind: "count", wire: "per_page", schema: decimalInt.pipe(z.number().min(1).max(100)), capped: true },
  // The wire name is the default of CORE_PAGE_PARAM; the core client sends the configured one.
  page: { kind: "count", wire: "page", schema: decimalInt.pipe(z.number().min(1).max(100_000)) },
} as const satisfies Record<string, FilterDefinition>;

export interface FilterDefinition {
  kind: FilterKind;
  wire: string;
  schema: z.ZodType;
  bound?: "from" | "to";
  capped?: boolean;
}

/** statuses: a list, comma-joined in URLs and queries; token: a free word; date: YYYY-MM-DD; count: a whole number. */
export type FilterKind = "statuses" | "token" | "date" | "count";
export type FilterKey = keyof typeof VERIFICATION_FILTERS;
export const FILTER_KEYS = Object.keys(VERIFICATION_FILTERS) as FilterKey[];

type FiltersShape = { [K in FilterKey]: z.ZodOptional<(typeof VERIFICATION_FILTERS)[K]["schema"]> };

/** A filter value as a URL or query parameter: lists comma-joined, everything else as text. */
export function filterParam(value: string | number | readonly string[]): string {
  return typeof value === "object" ? value.join(",") : String(value);
}

export const verificationFiltersSchema = z
  .object(Object.fromEntries(FILTER_KEYS.map((key) => [key, VERIFICATION_FILTERS[key].schema.optional()])) as FiltersShape)
  .strict()
  .refine((filters) => !filters.from || !filters.to || filters.from <= filters.to, {
    message: "must not be after `to`",
    path: ["from"],
  });

export type VerificationFilters = z.infer<typeof verificationFiltersSchema>;

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

/**
 * Creation body. Strict: `integration_origin_public_id` (removed by the service) or any other unknown
 * field is refused here, by name, before any call.
 */
export const createVerificationSchema = z
  .object({
    schemaVersion: z.string().trim().min(1, "is required").max(32),
    refId: z.string().trim().min(1, "is required").max(128),
    document: z
      .object({
        type: z.enum(DOCUMENT_TYPES, { error: `must be one of ${DOCUMENT_TYPES.join(", ")}` }),
        number: z.string().trim().min(1, "is required").max(64),
      })
      .strict(),
  })
  .strict()
  .superRefine((body, context) => {
    if (body.document.type === "cpf" && !isValidCpf(body.document.number)) {
      context.addIssue({ code: "custom", path: ["document", "number"], message: "is not a valid CPF" });
    }
  });

export type CreateVerificationInput = z.infer<typeof createVerificationSchema>;

export const KNOWN_JOURNEYS = VERIFICATION_JOURNEYS;

/** Page size the dashboard asks for when the URL names none (always sent, so views are reproducible). */
export const DEFAULT_PAGE_SIZE = 20;

/**
 * ASSUMPTION: the contract only says `public_id` is a string. Ids seen are UUIDs; this accepts those and
 * any other token of letters, digits, `_` and `-`, and refuses anything that could change an upstream path
 * (`/`, `.`, `%`, `?`, `#`) before any call. The one definition: pages, routes and the core client use it.
 */
export const PUBLIC_ID_PATTERN = /^[A-Za-z0-9_-]{1,128}$/;
export const publicIdSchema = z.string().regex(PUBLIC_ID_PATTERN, "must be a verification id (letters, digits, _ or -)");

export function isPublicId(value: unknown): value is string {
  return typeof value === "string" && PUBLIC_ID_PATTERN.test(value);
}

export interface InputProblem {
  /** The parameter or field, e.g. `per_page`, `document.number`; an unknown key is named as sent. */
  field: string;
  message: string;
}

/**
 * One problem per field of a failed parse. zod reports unknown keys as one issue at the root; they are
 * split here so each unknown parameter is named. Array positions are dropped (`status.0` → `status`).
 */
export function problemsOf(error: z.ZodError): InputProblem[] {
  const problems: InputProblem[] = [];
  for (const issue of error.issues) {
    const base = issue.path.filter((part) => typeof part === "string").join(".");
    if (issue.code === "unrecognized_keys") {
      for (const key of issue.keys) problems.push({ field: base ? `${base}.${key}` : key, message: "is not accepted" });
      continue;
    }
    const field = base || "(input)";
    if (!problems.some((problem) => problem.field === field)) problems.push({ field, message: issue.message });
  }
  return problems;
}

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
  const parsed = verificationFiltersSchema.safeParse(filtersFromSearchParams(params));
  if (!parsed.success) return { ok: false, problems: problemsOf(parsed.error) };
  return { ok: true, filters: normalizeFilters(parsed.data) };
}

/** The URL of a filtered view, without the defaults (page 1, the default page size). */
export function filtersToUrlQuery(filters: VerificationFilters): string {
  const { per_page: perPage, ...rest } = normalizeFilters(filters);
  return filtersToSearchParams(perPage === DEFAULT_PAGE_SIZE ? rest : { ...rest, per_page: perPage }).toString();
}
