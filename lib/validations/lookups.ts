import { z } from "zod";

import { cpfSchema } from "./cpf-schema";
import { LOOKUP_SOURCES, MAX_PURPOSE_LENGTH, MIN_PURPOSE_LENGTH } from "./lookup-rules";

// Shared by the lookup and KYC forms and their route handlers (POST /api/lookups/cpf, POST /api/kyc/sessions).

export * from "./lookup-rules";

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
