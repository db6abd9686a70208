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
