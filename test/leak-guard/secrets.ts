import { isValidCpf } from "@/lib/shared/cpf";
import { JWT_SHAPE } from "@/test/jwt-shape";

import type { Place, UpstreamExchange } from "./harness";

/*
 * What must not leak, and the few places where a value is allowed by design.
 *
 * The values are the run's real ones: the configured credentials, the staff passwords typed, and what
 * the upstream issued during the flows (read from the recorded upstream exchanges). Patterns then catch
 * shapes no flow handed us (a JWT, a signed URL, a bearer header) wherever they turn up.
 */

export type SecretKind =
  | "API key"
  | "partner password"
  | "staff password"
  | "bearer token"
  | "integration token"
  | "integration key value"
  | "signed file URL"
  | "widget token"
  | "full CPF";

export interface Secret {
  kind: SecretKind;
  value: string;
  /** Where it came from, for the failure message. */
  source: string;
}

/**
 * Answers that may carry a value by design (DESIGN.md "Sensitive data" and the contract):
 * - a new integration key is shown once on creation, and again within its reveal window;
 * - the widget address goes to the operator who hands it to the person; by the contract it carries the
 *   integration token in its `token` parameter;
 * - a person's record (lookup, KYC, verification) may show that person's CPF, when the key allows it.
 * Never in the database or the server's output.
 */
const ALLOWED_IN_RESPONSES: Partial<Record<SecretKind, RegExp>> = {
  "integration key value": /^integrations: (create|reveal)\b/,
  "widget token": /^kyc: /,
  "integration token": /^kyc: /,
  "full CPF": /^(lookups|kyc|verifications): /,
};

export function allowed(secret: Pick<Secret, "kind">, place: Place): boolean {
  if (place.kind !== "response") return false;
  const rule = ALLOWED_IN_RESPONSES[secret.kind];
  return rule !== undefined && place.label !== undefined && rule.test(place.label);
}

const CPF_FORMATTED = /(?<![\d.])(\d{3})\.(\d{3})\.(\d{3})-(\d{2})(?![\d-])/g;
const CPF_FIELD = /"(?:cpf|CPF|documento|document|NumeroCpf|cpf_number)"\s*:\s*"(\d{11})"/g;

function jsonStrings(text: string | null): Array<{ path: string; value: string }> {
  if (!text) return [];
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    return [];
  }
  const out: Array<{ path: string; value: string }> = [];
  const walk = (value: unknown, path: string) => {
    if (typeof value === "string") out.push({ path, value });
    else if (Array.isArray(value)) value.forEach((item, index) => walk(item, `${path}[${index}]`));
    else if (value && typeof value === "object") for (const [key, item] of Object.entries(value)) walk(item, path ? `${path}.${key}` : key);
  };
  walk(parsed, "");
  return out;
}

/** The run's secrets: configured credentials, typed passwords, and everything the upstream issued. */
export function harvestSecrets(
  exchanges: UpstreamExchange[],
  known: { apiKey: string; partnerPassword: string; integrationToken: string; staffPasswords: string[]; cpfs: string[] },
): Secret[] {
  const secrets: Secret[] = [
    { kind: "API key", value: known.apiKey, source: "configuration" },
    { kind: "partner password", value: known.partnerPassword, source: "configuration" },
    { kind: "integration token", value: known.integrationToken, source: "configuration" },
    ...known.staffPasswords.map((value) => ({ kind: "staff password" as const, value, source: "typed at sign-in" })),
    ...known.cpfs.map((value) => ({ kind: "full CPF" as const, value, source: "typed in a flow" })),
  ];
  const add = (kind: SecretKind, value: string | null | undefined, source: string) => {
    if (value && value.length >= 8 && !secrets.some((secret) => secret.kind === kind && secret.value === value))
      secrets.push({ kind, value, source });
  };

  for (const exchange of exchanges) {
    const url = new URL(exchange.url);
    if (url.pathname.startsWith("/sandbox/")) continue; // the test's own control calls
    const route = `${exchange.method} ${url.pathname}`;
    for (const [name, value] of exchange.requestHeaders) {
      if (name === "authorization") add("bearer token", value.replace(/^Bearer\s+/i, ""), `${route} request header`);
      // x-api-key carries the core API key, and the integration token on the partners SMS calls.
      if (name === "x-api-key")
        add(url.pathname.startsWith("/partners/") ? "integration token" : "API key", value, `${route} request header`);
      if (name === "x-integration-token") add("integration token", value, `${route} request header`);
    }
    for (const { path, value } of jsonStrings(exchange.responseBody)) {
      if (path === "token" && /\/(auth\/login|generate_jwt)$/.test(url.pathname)) add("bearer token", value, `${route} answer`);
      if (path === "integration.uuid") add("integration key value", value, `${route} answer`);
      if (path.endsWith(".url") && /\/files\//.test(value)) {
        add("signed file URL", value, `${route} answer`);
        add("signed file URL", new URL(value).searchParams.get("signature"), `${route} answer (signature)`);
      }
      if (path === "url" && /\/kyc\/get-sdk-url$/.test(url.pathname)) {
        const widget = new URL(value);
        add("widget token", value, `${route} answer (widget address)`);
        add("widget token", widget.pathname.split("/").pop(), `${route} answer (widget session id)`);
        add("widget token", widget.searchParams.get("token"), `${route} answer (widget token)`);
      }
    }
    // Full CPFs the upstream sent (a person's record), in either spelling.
    const texts = [exchange.responseBody ?? "", decodeURIComponent(url.search), exchange.requestBody];
    for (const text of texts) {
      for (const match of text.matchAll(CPF_FORMATTED)) {
        const digits = match.slice(1).join("");
        if (isValidCpf(digits)) add("full CPF", digits, `${route}`);
      }
      for (const match of text.matchAll(CPF_FIELD)) if (isValidCpf(match[1]!)) add("full CPF", match[1], `${route}`);
      for (const match of text.matchAll(/[?&]cpf=(\d{11})/g)) if (isValidCpf(match[1]!)) add("full CPF", match[1], `${route}`);
    }
  }
  return secrets;
}

/** How a value may appear besides verbatim: URL-encoded, lower-cased (typed text), a CPF formatted. */
function spellings(secret: Secret): string[] {
  const out = new Set([secret.value, encodeURIComponent(secret.value)]);
  // What was typed may be stored normalised (an email box lower-cases and trims what it gets).
  if (secret.kind === "staff password") out.add(secret.value.trim().toLowerCase());
  if (secret.kind === "full CPF")
    out.add(`${secret.value.slice(0, 3)}.${secret.value.slice(3, 6)}.${secret.value.slice(6, 9)}-${secret.value.slice(9)}`);
  return [...out];
}

// Shapes that are a leak wherever they are, whoever issued them.
const PATTERNS: Array<{ kind: SecretKind; pattern: RegExp; allowedIn?: RegExp }> = [
  { kind: "bearer token", pattern: JWT_SHAPE },
  { kind: "bearer token", pattern: /\bBearer\s+(?!\[redacted\])[A-Za-z0-9._~+/=-]{16,}/i },
  { kind: "signed file URL", pattern: /[?&]signature=[0-9a-f]{16,}/i },
  { kind: "widget token", pattern: /\/widget\/[A-Za-z0-9_-]{8,}/, allowedIn: /^kyc: / },
];

export interface Leak {
  kind: SecretKind;
  source: string;
  where: string;
  context: string;
}

const shorten = (value: string) => (value.length > 10 ? `${value.slice(0, 4)}…${value.slice(-2)}` : value);

/** Some text around the hit, the hit marked ⟦…⟧; every secret in it shortened, so the report leaks nothing. */
function excerpt(text: string, index: number, length: number, secrets: Secret[]): string {
  const start = Math.max(0, index - 40);
  const end = Math.min(text.length, index + length + 40);
  const hide = (part: string) =>
    secrets.reduce((out, secret) => (secret.value.length >= 6 ? out.split(secret.value).join(shorten(secret.value)) : out), part);
  const value = text.slice(index, index + length);
  return `${start > 0 ? "…" : ""}${hide(text.slice(start, index))}⟦${shorten(value)}⟧${hide(text.slice(index + length, end))}${end < text.length ? "…" : ""}`.replace(
    /\s+/g,
    " ",
  );
}

/** "…, column key" when the place is a database row and one column holds the value. */
function whereIn(place: Place, value: string): string {
  const column = place.columns ? Object.entries(place.columns).find(([, text]) => text.includes(value))?.[0] : undefined;
  return column ? `${place.where}, column ${column}` : place.where;
}

/** Every place where a secret, or a secret-shaped value, is where it must not be. */
export function findLeaks(secrets: Secret[], places: Place[]): Leak[] {
  const leaks: Leak[] = [];
  for (const place of places) {
    for (const secret of secrets) {
      if (allowed(secret, place)) continue;
      for (const spelling of spellings(secret)) {
        const index = place.text.indexOf(spelling);
        if (index >= 0) {
          leaks.push({
            kind: secret.kind,
            source: secret.source,
            where: whereIn(place, spelling),
            context: excerpt(place.text, index, spelling.length, secrets),
          });
          break;
        }
      }
    }
    for (const { kind, pattern, allowedIn } of PATTERNS) {
      if (place.kind === "response" && allowedIn && place.label && allowedIn.test(place.label)) continue;
      const match = pattern.exec(place.text);
      if (match && !leaks.some((leak) => leak.where.startsWith(place.where) && leak.kind === kind)) {
        leaks.push({
          kind,
          source: `pattern ${pattern.source.slice(0, 30)}…`,
          where: whereIn(place, match[0]),
          context: excerpt(place.text, match.index, match[0].length, secrets),
        });
      }
    }
  }
  return leaks;
}

export function describeLeaks(leaks: Leak[]): string {
  return leaks.map((leak) => `- ${leak.kind} (from ${leak.source}) found in ${leak.where}\n    ${leak.context}`).join("\n");
}
