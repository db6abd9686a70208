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

export const verificationFiltersSchema = z
  .object({
    status: z
      .array(z.enum(VERIFICATION_STATUSES, { error: `must be one of ${VERIFICATION_STATUSES.join(", ")}` }))
      .max(10)
      .optional(),
    flow: token.optional(),
    journey: token.optional(),
    from: isoDate.optional(),
    to: isoDate.optional(),
    per_page: decimalInt.pipe(z.number().min(1).max(100)).optional(),
    page: decimalInt.pipe(z.number().min(1).max(100_000)).optional(),
  })
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
    raw[key] = key === "status" ? values.flatMap((value) => value.split(",")).filter(Boolean) : values.length === 1 ? values[0] : values;
  }
  return raw;
}

/** The inverse, for links and the URL bar: stable order, status comma-separated. */
export function filtersToSearchParams(filters: VerificationFilters): URLSearchParams {
  const params = new URLSearchParams();
  if (filters.status?.length) params.set("status", filters.status.join(","));
  for (const key of ["flow", "journey", "from", "to", "per_page", "page"] as const) {
    const value = filters[key];
    if (value !== undefined) params.set(key, String(value));
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
  const out: VerificationFilters = {};
  if (filters.status?.length) {
    const rank = (value: string) => {
      const index = (KNOWN_STATUSES as readonly string[]).indexOf(value);
      return index === -1 ? KNOWN_STATUSES.length : index;
    };
    out.status = [...new Set(filters.status)].sort((a, b) => rank(a) - rank(b) || a.localeCompare(b));
  }
  if (filters.flow) out.flow = filters.flow;
  if (filters.journey) out.journey = filters.journey;
  if (filters.from) out.from = filters.from;
  if (filters.to) out.to = filters.to;
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
