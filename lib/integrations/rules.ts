// The domain a key is bound to and its label: the rules, without zod (the key creation form imports
// them); integrations.ts builds POST /api/integrations' schema on them.

import { hasUnsafeTextCharacters } from "@/lib/shared/safe-text";

export const MAX_DOMAIN_INPUT_LENGTH = 2048;
export const MAX_HOST_LENGTH = 253;
export const MAX_LABEL_LENGTH = 120;

export type DomainProblem = "required" | "too_long" | "scheme" | "credentials" | "host" | "ip" | "private";

const DNS_LABEL = /^(?!-)[a-z0-9-]{1,63}(?<!-)$/;
const TLD = /^(?:[a-z]{2,63}|xn--[a-z0-9-]{1,59})$/;
const IPV4 = /^(?:25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)(?:\.(?:25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)){3}$/;

/**
 * Names that resolve only inside a network (or nowhere): a key bound to one would let a client's page on
 * an internal host, or a metadata address, use it. Refused unless the deployment names the suffix in
 * INTEGRATION_PRIVATE_DOMAINS. RFC 6761/6762/2606 and the common private top-level names.
 */
const PRIVATE_SUFFIXES = [
  "localhost",
  "local",
  "localdomain",
  "internal",
  "intranet",
  "private",
  "corp",
  "home",
  "lan",
  "arpa",
  "test",
  "invalid",
  "example",
  "onion",
];

function underSuffix(host: string, suffix: string): boolean {
  return host === suffix || host.endsWith(`.${suffix}`);
}

/**
 * Reads a domain typed as a URL ("https://Example.com.br/path") or a host ("example.com.br"): the host it
 * names, lower-cased (and punycoded by the URL parser), or the problem. Only http(s) URLs are accepted,
 * never credentials in the URL. The service stores the host itself; this is what the form previews.
 */
export function parseDomain(
  input: string,
  /** Private suffixes this deployment accepts (INTEGRATION_PRIVATE_DOMAINS), e.g. "corp.example.net". */
  allowedPrivate: readonly string[] = [],
): { host: string } | { problem: DomainProblem } {
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
  // The URL parser has already turned "0x7f.1", "2130706433" or "127.1" into a dotted IPv4 address, and
  // keeps IPv6 in brackets: no IP literal is a domain, public or not.
  if (IPV4.test(host) || host.startsWith("[")) return { problem: "ip" };
  const labels = host.split(".");
  if (!labels.every((label) => DNS_LABEL.test(label))) return { problem: "host" };
  // Loopback names are never a client's domain, whatever is configured.
  if (underSuffix(host, "localhost")) return { problem: "private" };
  if (allowedPrivate.some((suffix) => underSuffix(host, suffix))) return { host };
  if (PRIVATE_SUFFIXES.some((suffix) => underSuffix(host, suffix))) return { problem: "private" };
  // A single label ("intranet", "metadata") resolves only through a local search domain.
  if (labels.length < 2) return { problem: "private" };
  if (!TLD.test(labels[labels.length - 1] ?? "")) return { problem: "host" };
  return { host };
}

export type LabelProblem = "required" | "too_long" | "characters" | "invisible";

export function labelProblem(input: string): LabelProblem | undefined {
  const value = input.trim();
  if (value === "") return "required";
  if (value.length > MAX_LABEL_LENGTH) return "too_long";
  if (/[\u0000-\u001f\u007f]/.test(value)) return "characters";
  // Bidirectional controls and zero-width characters (lib/shared/safe-text.ts): the label others read must be what was typed.
  if (hasUnsafeTextCharacters(input)) return "invisible";
  return undefined;
}

/*
 * A key's state as the dashboard knows it. `retired`: marked retired here; the service still accepts it until an
 * admin revokes it in the provider's own dashboard, since the contract offers no operation that revokes (or lists) a
 * key. No `expired`: neither the contract nor the provider's material gives an integration key a validity.
 * ASSUMPTION (docs/assumptions.md#integration-key-retire).
 */
export const INTEGRATION_KEY_STATES = ["active", "retired"] as const;
export type IntegrationKeyState = (typeof INTEGRATION_KEY_STATES)[number];

export function integrationKeyStateOf(key: { retiredAt: string | null }): IntegrationKeyState {
  return key.retiredAt === null ? "active" : "retired";
}

export const MAX_RETIRE_REASON_LENGTH = 300;

export type RetireReasonProblem = "required" | "too_long" | "characters" | "invisible" | "key";

// A key value is a UUID: the reason is stored and shown to every admin, so a pasted key value never is.
const KEY_VALUE = /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/i;

/** Why an admin retires a key: kept with the key and on the audit trail. */
export function retireReasonProblem(input: string): RetireReasonProblem | undefined {
  const value = input.trim();
  if (value === "") return "required";
  if (value.length > MAX_RETIRE_REASON_LENGTH) return "too_long";
  if (/[\u0000-\u001f\u007f]/.test(value)) return "characters";
  if (hasUnsafeTextCharacters(input)) return "invisible";
  if (KEY_VALUE.test(value)) return "key";
  return undefined;
}
