import { z } from "zod";

import { LOCALES } from "@/lib/i18n/locales";
import { cpfSchema } from "@/lib/shared/cpf-schema";
import { UNSAFE_TEXT_MESSAGE } from "@/lib/shared/safe-text";

import { erasureReasonProblem, MAX_ERASURE_REASON_LENGTH, type ErasureReasonProblem } from "./erasure";
import {
  answerProblem,
  contactProblem,
  MAX_ANSWER_LENGTH,
  MAX_CONTACT_LENGTH,
  REQUEST_ANSWERS,
  REQUEST_CHANNELS,
  REQUEST_KINDS,
  type TextProblem,
} from "./requests";
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

// A clock a few minutes ahead of this server's must not refuse a request received "now".
const FUTURE_SKEW_MS = 5 * 60_000;

const CONTACT_MESSAGES: Record<Exclude<TextProblem, "required">, string> = {
  too_long: `Contact must be at most ${MAX_CONTACT_LENGTH} characters`,
  invisible: `Contact must be one line; it ${UNSAFE_TEXT_MESSAGE} or control characters`,
  cpf: "Contact must not hold a CPF: the request keeps the person's CPF only as a keyed hash",
};

const ANSWER_MESSAGES: Record<TextProblem, string> = {
  required: "Answer is required",
  too_long: `Answer must be at most ${MAX_ANSWER_LENGTH} characters`,
  invisible: `Answer ${UNSAFE_TEXT_MESSAGE} or control characters`,
  cpf: "Answer must not hold a CPF: the request keeps the person's CPF only as a keyed hash",
};

function textField<P extends string>(messages: Record<P, string>, problemOf: (value: string) => P | undefined, required: string) {
  return z.string({ error: required }).transform((value, context) => {
    const problem = problemOf(value);
    if (problem) {
      context.addIssue({ code: "custom", message: messages[problem], params: { problem } });
      return z.NEVER;
    }
    return value.trim();
  });
}

const receivedAtSchema = z.iso
  .datetime({ offset: true, error: "receivedAt must be an ISO date-time with its offset" })
  .transform((value) => new Date(value))
  .refine((value) => value.getTime() <= Date.now() + FUTURE_SKEW_MS, { error: "receivedAt cannot be in the future" });

/** POST /api/privacy/requests: `{cpf, kind, channel, receivedAt, contact?}`. */
export const privacyRequestSchema = z.strictObject({
  cpf: cpfSchema,
  kind: z.enum(REQUEST_KINDS, { error: `Kind must be one of ${REQUEST_KINDS.join(", ")}` }),
  channel: z.enum(REQUEST_CHANNELS, { error: `Channel must be one of ${REQUEST_CHANNELS.join(", ")}` }),
  receivedAt: receivedAtSchema,
  contact: textField(CONTACT_MESSAGES, contactProblem, "Contact must be text")
    .optional()
    .transform((value) => (value === "" ? undefined : value)),
});

export type PrivacyRequestInput = z.infer<typeof privacyRequestSchema>;

/** POST /api/privacy/requests/{id}/close: `{answer, sent}`. */
export const closeRequestSchema = z.strictObject({
  answer: textField(ANSWER_MESSAGES, answerProblem, ANSWER_MESSAGES.required),
  sent: z.enum(REQUEST_ANSWERS, { error: `Sent must be one of ${REQUEST_ANSWERS.join(", ")}` }),
});

export type CloseRequestInput = z.infer<typeof closeRequestSchema>;

/** The `{id}` of /api/privacy/requests/{id}/…: a request's UUID (anything else is no request: 404). */
export const privacyRequestParamsSchema = z.object({ id: z.string() });
