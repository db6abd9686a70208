import { z } from "zod";

// Shared by the key creation form and POST /api/integrations: the domain a key is bound to, and its label.

export const MAX_DOMAIN_INPUT_LENGTH = 2048;
export const MAX_HOST_LENGTH = 253;
export const MAX_LABEL_LENGTH = 120;

export type DomainProblem = "required" | "too_long" | "scheme" | "credentials" | "host";

const DNS_LABEL = /^(?!-)[a-z0-9-]{1,63}(?<!-)$/;
const TLD = /^(?:[a-z]{2,63}|xn--[a-z0-9-]{1,59})$/;
const IPV4 = /^(?:25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)(?:\.(?:25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)){3}$/;

/**
 * Reads a domain typed as a URL ("https://Example.com.br/path") or a host ("example.com.br"): the host it
 * names, lower-cased (and punycoded by the URL parser), or the problem. Only http(s) URLs are accepted,
 * never credentials in the URL. The service stores the host itself; this is what the form previews.
 */
export function parseDomain(input: string): { host: string } | { problem: DomainProblem } {
  const value = input.trim();
  if (value === "") return { problem: "required" };
  if (value.length > MAX_DOMAIN_INPUT_LENGTH) return { problem: "too_long" };
  if (/\s/.test(value)) return { problem: "host" };
  const hasScheme = /^[a-z][a-z0-9+.-]*:\/\//i.test(value);
  if (hasScheme && !/^https?:\/\//i.test(value)) return { problem: "scheme" };
  // "mailto:x@y", "javascript:…" have no "//" but still name a scheme; a host never holds a colon
  // except before a port.
  if (!hasScheme && /^[a-z][a-z0-9+.-]*:(?!\d+(?:[/?#]|$))/i.test(value)) return { problem: "scheme" };
  let url: URL;
  try {
    url = new URL(hasScheme ? value : `https://${value}`);
  } catch {
    return { problem: "host" };
  }
  if (url.username || url.password) return { problem: "credentials" };
  const host = url.hostname.toLowerCase().replace(/\.$/, "");
  if (host.length === 0) return { problem: "host" };
  if (host.length > MAX_HOST_LENGTH) return { problem: "too_long" };
  if (host === "localhost" || IPV4.test(host)) return { host };
  const labels = host.split(".");
  const tld = labels[labels.length - 1] ?? "";
  if (labels.length < 2 || !labels.every((label) => DNS_LABEL.test(label)) || !TLD.test(tld)) return { problem: "host" };
  return { host };
}

const DOMAIN_MESSAGES: Record<DomainProblem, string> = {
  required: "Domain is required",
  too_long: "Domain is too long",
  scheme: "Domain must be an http(s) URL or a host",
  credentials: "Domain must not contain a user name or password",
  host: "Domain must be a valid host such as example.com.br",
};

/** The domain as typed (trimmed): the service does its own normalisation and answers with the host. */
export const integrationDomainSchema = z
  .string({ error: DOMAIN_MESSAGES.required })
  .trim()
  .superRefine((value, context) => {
    const parsed = parseDomain(value);
    if ("problem" in parsed)
      context.addIssue({ code: "custom", message: DOMAIN_MESSAGES[parsed.problem], params: { problem: parsed.problem } });
  });

export type LabelProblem = "required" | "too_long" | "characters";

export function labelProblem(input: string): LabelProblem | undefined {
  const value = input.trim();
  if (value === "") return "required";
  if (value.length > MAX_LABEL_LENGTH) return "too_long";
  if (/[\u0000-\u001f\u007f]/.test(value)) return "characters";
  return undefined;
}

const LABEL_MESSAGES: Record<LabelProblem, string> = {
  required: "Label is required",
  too_long: `Label must be at most ${MAX_LABEL_LENGTH} characters`,
  characters: "Label must not contain control characters",
};

export const integrationLabelSchema = z
  .string({ error: LABEL_MESSAGES.required })
  .trim()
  .superRefine((value, context) => {
    const problem = labelProblem(value);
    if (problem) context.addIssue({ code: "custom", message: LABEL_MESSAGES[problem], params: { problem } });
  });

export const createIntegrationSchema = z.strictObject({
  domain: integrationDomainSchema,
  label: integrationLabelSchema,
  /**
   * Set only after the dashboard warned that an earlier attempt with the same domain and label may
   * already have created a key (double submit, timeout): the operator chose to send again.
   */
  confirmDuplicate: z.boolean().optional(),
});

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
});

export type IntegrationKeySummary = z.infer<typeof integrationKeySummarySchema>;
