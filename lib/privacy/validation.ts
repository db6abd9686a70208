import { z } from "zod";

import { LOCALES } from "@/lib/i18n/locales";
import { cpfSchema } from "@/lib/shared/cpf-schema";
import { UNSAFE_TEXT_MESSAGE } from "@/lib/shared/safe-text";

import { erasureReasonProblem, MAX_ERASURE_REASON_LENGTH, type ErasureReasonProblem } from "./erasure";
import { REPORT_FORMATS } from "./titular";

// The privacy routes' input: erasures (app/api/privacy/erasures), on the rules the form runs (./erasure.ts), and
// the titular report (POST /api/privacy/reports). A CPF travels in a body only, never in a dashboard URL.

const REASON_MESSAGES: Record<ErasureReasonProblem, string> = {
  required: "Reason is required",
  too_long: `Reason must be at most ${MAX_ERASURE_REASON_LENGTH} characters`,
  invisible: `Reason ${UNSAFE_TEXT_MESSAGE} or control characters`,
  cpf: "Reason must not hold a CPF: the request keeps the person's CPF only as a keyed hash",
};

const reasonSchema = z.string({ error: REASON_MESSAGES.required }).transform((value, context) => {
  const problem = erasureReasonProblem(value);
  if (problem) {
    context.addIssue({ code: "custom", message: REASON_MESSAGES[problem], params: { problem } });
    return z.NEVER;
  }
  return value.trim();
});

/** POST /api/privacy/erasures: `{cpf, reason}`. */
export const erasureRequestSchema = z.strictObject({ cpf: cpfSchema, reason: reasonSchema });

export type ErasureRequestInput = z.infer<typeof erasureRequestSchema>;

/** The `{id}` of /api/privacy/erasures/{id}/…: a request's UUID (anything else is no request: 404). */
export const erasureParamsSchema = z.object({ id: z.string() });

/** POST /api/privacy/reports: `{cpf, format?, locale?}`. */
export const titularReportSchema = z.strictObject({
  cpf: cpfSchema,
  format: z.enum(REPORT_FORMATS, { error: 'Format must be "json", "csv" or "pdf"' }).optional(),
  locale: z.enum(LOCALES, { error: 'Locale must be "pt-BR" or "en"' }).optional(),
});
