import { z } from "zod";

import { cpfSchema } from "../shared/cpf-schema";
import { LOOKUP_SOURCES, MAX_PURPOSE_LENGTH, MIN_PURPOSE_LENGTH, purposeProblem, type PurposeProblem } from "./rules";

// Shared by the lookup and KYC forms and their route handlers (POST /api/lookups/cpf, POST /api/kyc/sessions).

export * from "./rules";

const PURPOSE_MESSAGES: Record<PurposeProblem, string> = {
  required: "Purpose is required",
  too_short: `Purpose must be at least ${MIN_PURPOSE_LENGTH} characters`,
  too_long: `Purpose must be at most ${MAX_PURPOSE_LENGTH} characters`,
};

/** The reason for a lookup, kept in the audit trail: the forms' rule (lookup-rules.ts) as a zod field. */
export const purposeSchema = z.string({ error: PURPOSE_MESSAGES.required }).transform((value, context) => {
  const problem = purposeProblem(value);
  if (problem) {
    context.addIssue({ code: "custom", message: PURPOSE_MESSAGES[problem], params: { problem } });
    return z.NEVER;
  }
  // One line: the audit trail and its CSV export stay readable.
  return value.trim().replace(/\s+/g, " ");
});

/** POST /api/lookups/cpf. The CPF travels in the body only, never in a dashboard URL. */
export const cpfLookupSchema = z.strictObject({
  cpf: cpfSchema,
  source: z.enum(LOOKUP_SOURCES, { error: 'Source must be "receita" or "history"' }),
  purpose: purposeSchema,
});

export type CpfLookupInput = z.input<typeof cpfLookupSchema>;
