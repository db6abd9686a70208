import { z } from "zod";

import { cpfDigits, cpfSchema, isValidCpf } from "./cpf";

// Shared by the lookup and KYC forms and their route handlers (POST /api/lookups/cpf, POST /api/kyc/sessions).

export const LOOKUP_SOURCES = ["receita", "history"] as const;
export type LookupSource = (typeof LOOKUP_SOURCES)[number];

export const MIN_PURPOSE_LENGTH = 5;
export const MAX_PURPOSE_LENGTH = 300;

export type CpfProblem = "required" | "length" | "repeated" | "check_digits";

/** The same rules as cpfSchema, as a key the form can translate. */
export function cpfProblem(input: string): CpfProblem | undefined {
  const digits = cpfDigits(input);
  if (input.trim() === "") return "required";
  if (digits.length !== 11) return "length";
  if (/^(\d)\1{10}$/.test(digits)) return "repeated";
  if (!isValidCpf(digits)) return "check_digits";
  return undefined;
}

export type PurposeProblem = "required" | "too_short" | "too_long";

export function purposeProblem(input: string): PurposeProblem | undefined {
  const value = input.trim();
  if (value === "") return "required";
  if (value.length < MIN_PURPOSE_LENGTH) return "too_short";
  if (value.length > MAX_PURPOSE_LENGTH) return "too_long";
  return undefined;
}

/** The reason for a lookup, kept in the audit trail. */
export const purposeSchema = z
  .string({ error: "Purpose is required" })
  .trim()
  .min(1, { message: "Purpose is required", abort: true })
  .min(MIN_PURPOSE_LENGTH, `Purpose must be at least ${MIN_PURPOSE_LENGTH} characters`)
  .max(MAX_PURPOSE_LENGTH, `Purpose must be at most ${MAX_PURPOSE_LENGTH} characters`)
  // One line: the audit trail and its CSV export stay readable.
  .transform((value) => value.replace(/\s+/g, " "));

/** POST /api/lookups/cpf. The CPF travels in the body only, never in a dashboard URL. */
export const cpfLookupSchema = z.strictObject({
  cpf: cpfSchema,
  source: z.enum(LOOKUP_SOURCES, { error: 'Source must be "receita" or "history"' }),
  purpose: purposeSchema,
});

export type CpfLookupInput = z.input<typeof cpfLookupSchema>;

/** POST /api/kyc/sessions. The widget language follows the dashboard's language (server side). */
export const kycSessionSchema = z.strictObject({ cpf: cpfSchema });

export type KycSessionInput = z.input<typeof kycSessionSchema>;
