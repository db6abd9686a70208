import { z } from "zod";

import { UNSAFE_TEXT_MESSAGE } from "@/lib/shared/safe-text";

import {
  INTEGRATION_KEY_STATES,
  labelProblem,
  MAX_LABEL_LENGTH,
  MAX_RETIRE_REASON_LENGTH,
  parseDomain,
  retireReasonProblem,
  type DomainProblem,
  type LabelProblem,
  type RetireReasonProblem,
} from "./rules";

// Shared by the key creation form and POST /api/integrations: the domain a key is bound to, and its label.

export * from "./rules";

const DOMAIN_MESSAGES: Record<DomainProblem, string> = {
  required: "Domain is required",
  too_long: "Domain is too long",
  scheme: "Domain must be an http(s) URL or a host",
  credentials: "Domain must not contain a user name or password",
  host: "Domain must be a valid host such as example.com.br",
  ip: "Domain must be a host name, not an IP address",
  private: "Domain must be a public host name, not a local or private one",
};

/** The domain as typed (trimmed): the service does its own normalisation and answers with the host. */
export function integrationDomainSchemaFor(allowedPrivate: readonly string[] = []) {
  return z
    .string({ error: DOMAIN_MESSAGES.required })
    .trim()
    .superRefine((value, context) => {
      const parsed = parseDomain(value, allowedPrivate);
      if ("problem" in parsed)
        context.addIssue({ code: "custom", message: DOMAIN_MESSAGES[parsed.problem], params: { problem: parsed.problem } });
    });
}

const LABEL_MESSAGES: Record<LabelProblem, string> = {
  required: "Label is required",
  too_long: `Label must be at most ${MAX_LABEL_LENGTH} characters`,
  characters: "Label must not contain control characters",
  invisible: `Label ${UNSAFE_TEXT_MESSAGE}`,
};

export const integrationLabelSchema = z
  .string({ error: LABEL_MESSAGES.required })
  .trim()
  .superRefine((value, context) => {
    const problem = labelProblem(value);
    if (problem) context.addIssue({ code: "custom", message: LABEL_MESSAGES[problem], params: { problem } });
  });

/** The creation body; the server passes the private suffixes it is configured to accept. */
export const createIntegrationSchemaFor = (allowedPrivate: readonly string[] = []) =>
  z.strictObject({
    domain: integrationDomainSchemaFor(allowedPrivate),
    label: integrationLabelSchema,
    /**
     * Set only after the dashboard warned that an earlier attempt with the same domain and label may
     * already have created a key (double submit, timeout): the operator chose to send again.
     */
    confirmDuplicate: z.boolean().optional(),
  });

export const createIntegrationSchema = createIntegrationSchemaFor();

export type CreateIntegrationInput = z.infer<typeof createIntegrationSchema>;

/** What GET /api/integrations lists: metadata only, never the key value. */
export const integrationKeySummarySchema = z.object({
  id: z.string(),
  upstreamId: z.number().int(),
  label: z.string(),
  domain: z.string(),
  createdAt: z.string(),
  upstreamCreatedAt: z.string().nullable(),
  createdByEmail: z.string().nullable(),
  /** `retired`: marked retired here, still valid at the service until revoked in the provider's dashboard. */
  state: z.enum(INTEGRATION_KEY_STATES),
  retiredAt: z.string().nullable(),
  retiredByEmail: z.string().nullable(),
  retireReason: z.string().nullable(),
});

export type IntegrationKeySummary = z.infer<typeof integrationKeySummarySchema>;

const RETIRE_REASON_MESSAGES: Record<RetireReasonProblem, string> = {
  required: "Reason is required",
  too_long: `Reason must be at most ${MAX_RETIRE_REASON_LENGTH} characters`,
  characters: "Reason must not contain control characters",
  invisible: `Reason ${UNSAFE_TEXT_MESSAGE}`,
  key: "Reason must not contain a key value",
};

/** POST /api/integrations/{upstreamId}/retire: why the admin retires the key. */
export const retireIntegrationSchema = z.strictObject({
  reason: z
    .string({ error: RETIRE_REASON_MESSAGES.required })
    .trim()
    .superRefine((value, context) => {
      const problem = retireReasonProblem(value);
      if (problem) context.addIssue({ code: "custom", message: RETIRE_REASON_MESSAGES[problem], params: { problem } });
    }),
});

export type RetireIntegrationInput = z.infer<typeof retireIntegrationSchema>;
