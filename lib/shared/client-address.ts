import { isIP } from "node:net";

/*
 * The address of the person making a request, for sign-in throttling and the audit trail.
 *
 * Next's route handlers do not see the socket. `instrumentation.ts` therefore copies each connection's
 * peer address into PEER_HEADER before Next reads the request, overwriting anything a client sent
 * under that name. X-Forwarded-For is believed only when that peer is a configured trusted proxy;
 * otherwise a client could send a new X-Forwarded-For with each attempt and never be counted.
 */

export const PEER_HEADER = "x-kyc-peer-address";
export const UNKNOWN_ADDRESS = "unknown";

type HeaderSource = Headers | Record<string, string | string[] | undefined>;

function header(source: HeaderSource, name: string): string | undefined {
  if (source instanceof Headers) return source.get(name) ?? undefined;
  const value = source[name] ?? source[name.toLowerCase()];
  return Array.isArray(value) ? value.join(",") : value;
}

/** `::ffff:127.0.0.1` and `127.0.0.1` are one address; anything that is not an IP is dropped. */
export function normaliseAddress(raw: string | undefined): string | undefined {
  if (!raw) return undefined;
  let value = raw.trim();
  // "[::1]:443" and "1.2.3.4:5678" forms, as some proxies write them.
  const bracketed = /^\[([^\]]+)\](?::\d+)?$/.exec(value);
  if (bracketed?.[1]) value = bracketed[1];
  else if (/^\d{1,3}(\.\d{1,3}){3}:\d+$/.test(value)) value = value.slice(0, value.lastIndexOf(":"));
  if (value.toLowerCase().startsWith("::ffff:") && isIP(value.slice(7)) === 4) value = value.slice(7);
  return isIP(value) ? value.toLowerCase() : undefined;
}

/** Headers a proxy writes to say who its client was; believed only from TRUSTED_PROXIES. */
export const FORWARDING_HEADERS = ["x-forwarded-for", "forwarded", "x-real-ip"] as const;

/** The forwarding headers a request carries (their names), e.g. to say they were ignored. */
export function forwardingHeadersIn(headers: HeaderSource): string[] {
  return FORWARDING_HEADERS.filter((name) => (header(headers, name) ?? "") !== "");
}

export function clientAddress(headers: HeaderSource, trustedProxies: readonly string[]): string {
  const peer = normaliseAddress(header(headers, PEER_HEADER));
  if (!peer) return UNKNOWN_ADDRESS;
  const trusted = new Set(trustedProxies.map((entry) => normaliseAddress(entry)).filter(Boolean));
  if (!trusted.has(peer)) return peer;
  // Walk the chain from the nearest hop outwards; the first address that is not one of our proxies is
  // the client. Entries further left were written by the client itself and prove nothing.
  const chain = (header(headers, "x-forwarded-for") ?? "").split(",").map((entry) => normaliseAddress(entry));
  for (let index = chain.length - 1; index >= 0; index -= 1) {
    const hop = chain[index];
    if (!hop) return peer; // a garbled hop: stop believing the chain there
    if (!trusted.has(hop)) return hop;
  }
  return peer;
}
