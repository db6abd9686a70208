import { z } from "zod";

import { cpfSchema } from "@/lib/shared/cpf-schema";
import { purposeSchema } from "@/lib/shared/purpose-schema";

import { LOOKUP_SOURCES } from "./rules";

// Shared by the lookup and KYC forms and their route handlers (POST /api/lookups/cpf, POST /api/kyc/sessions).

export * from "./rules";
export { purposeSchema };

/** POST /api/lookups/cpf. The CPF travels in the body only, never in a dashboard URL. */
export const cpfLookupSchema = z.strictObject({
  cpf: cpfSchema,
  source: z.enum(LOOKUP_SOURCES, { error: 'Source must be "receita" or "history"' }),
  purpose: purposeSchema,
});

export type CpfLookupInput = z.input<typeof cpfLookupSchema>;

/**
 * POST /api/verifications/:publicId/record: the person's records for a verification's document. The CPF is read on
 * the server; `cpf` only where the service shows the document masked (then it must match it), in the body.
 */
export const recordLookupSchema = z.strictObject({
  purpose: purposeSchema,
  sources: z
    .array(z.enum(LOOKUP_SOURCES, { error: 'Each source must be "receita" or "history"' }), { error: "Sources must be a list" })
    .min(1, "Give at least one source")
    .refine((sources) => new Set(sources).size === sources.length, "Give each source once"),
  cpf: cpfSchema.optional(),
});

export type RecordLookupInput = z.input<typeof recordLookupSchema>;
