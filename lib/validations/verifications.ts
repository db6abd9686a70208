import { z } from "zod";

import { isValidCpf } from "./cpf";

// Shared by the list page (URL state), GET /api/verifications and the creation form / POST handler.

/** Statuses the sandbox and the provider's public material name; the contract shows approved and review. */
export const KNOWN_STATUSES = ["approved", "review", "reproved", "started", "not_opened"] as const;
export const KNOWN_FLOWS = ["default", "kyc-faceindex", "kyc-sow"] as const;

// The full sets of statuses, flows and journeys are not shown: accept any plain token, offer the known ones.
const token = z.string().regex(/^[a-z0-9][a-z0-9_-]{0,63}$/, "must be a lowercase word (letters, digits, - or _)");
const isoDate = z
  .string()
  .regex(/^\d{4}-\d{2}-\d{2}$/, { message: "must be a date as YYYY-MM-DD", abort: true })
  .refine((value) => !Number.isNaN(Date.parse(`${value}T00:00:00Z`)) && new Date(`${value}T00:00:00Z`).toISOString().startsWith(value), "is not a real date");

export const PAGE_SIZES = [10, 20, 50, 100] as const;

export const verificationFiltersSchema = z
  .object({
    status: z.array(token).max(10).optional(),
    flow: token.optional(),
    journey: token.optional(),
    from: isoDate.optional(),
    to: isoDate.optional(),
    per_page: z.coerce.number().int("must be a whole number").min(1).max(100).optional(),
    page: z.coerce.number().int("must be a whole number").min(1).max(100_000).optional(),
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

export const DOCUMENT_TYPES = ["cpf"] as const;

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
        type: z.string().trim().min(1, "is required").max(32),
        number: z.string().trim().min(1, "is required").max(64),
      })
      .strict(),
  })
  .strict()
  .superRefine((body, context) => {
    if (body.document.type.toLowerCase() === "cpf" && !isValidCpf(body.document.number)) {
      context.addIssue({ code: "custom", path: ["document", "number"], message: "is not a valid CPF" });
    }
  });

export type CreateVerificationInput = z.infer<typeof createVerificationSchema>;
