import "server-only";

import http from "node:http";

import { config } from "@/lib/config";
import { log } from "@/lib/log";
import { noteServer } from "@/lib/runtime/listeners";
import { forwardingHeadersIn, PEER_HEADER } from "@/lib/shared/client-address";

/*
 * Called once from instrumentation.ts: before Next handles a request, write the socket's peer address
 * into PEER_HEADER (replacing any client-sent value), so route handlers can tell the real peer from a
 * forged X-Forwarded-For. Next keeps the socket to itself; this is the one place it is still reachable (and
 * its server: each one that accepts a connection is noted for the graceful stop, lib/runtime/listeners.ts).
 *
 * It is also where a deployment behind a proxy is noticed: the first request carrying X-Forwarded-For,
 * Forwarded or X-Real-IP while TRUSTED_PROXIES is empty logs one warning per process. Those headers are
 * ignored then (rightly: anyone can send them), so every client would share the proxy's address in the
 * audit trail and in sign-in throttling until the proxy's addresses are listed.
 */
const globalFlag = globalThis as typeof globalThis & { __kycPeerHeaderInstalled?: boolean; __kycForwardingWarned?: boolean };

/**
 * Logs `forwarding_headers_ignored` once per process when a request carries forwarding headers and no
 * proxy is trusted; `globalThis.__kycForwardingWarned` records that it did. Returns whether it logged.
 */
export function warnIfForwardingIgnored(
  headers: http.IncomingHttpHeaders | Headers,
  trustedProxies: () => readonly string[] = () => config().trustedProxies,
): boolean {
  if (globalFlag.__kycForwardingWarned) return false;
  const present = forwardingHeadersIn(headers instanceof Headers ? headers : (headers as Record<string, string | string[] | undefined>));
  if (present.length === 0) return false;
  let trusted: readonly string[];
  try {
    trusted = trustedProxies();
  } catch {
    return false; // an unreadable configuration is reported at start-up, not here
  }
  if (trusted.length > 0) return false;
  globalFlag.__kycForwardingWarned = true;
  log.warn("forwarding_headers_ignored", {
    headers: present,
    message:
      `A request arrived with ${present.join(", ")} but TRUSTED_PROXIES is empty, so these headers are ignored and the ` +
      "connection's own address is used (every client behind a proxy then shares the proxy's address in the audit trail " +
      "and in sign-in throttling). Behind a load balancer or reverse proxy, set TRUSTED_PROXIES to its addresses, " +
      "comma-separated (e.g. TRUSTED_PROXIES=10.0.0.2,10.0.0.3). Logged once per process.",
  });
  return true;
}

export function installPeerAddressHeader(): void {
  if (globalFlag.__kycPeerHeaderInstalled) return;
  globalFlag.__kycPeerHeaderInstalled = true;
  const originalEmit = http.Server.prototype.emit;
  http.Server.prototype.emit = function emit(this: http.Server, event: string | symbol, ...args: unknown[]) {
    // The server is noted for the drain, which closes its listener (lib/runtime/listeners.ts).
    if (event === "connection") noteServer(this);
    if (event === "request") {
      const request = args[0] as http.IncomingMessage;
      request.headers[PEER_HEADER] = request.socket?.remoteAddress ?? "";
      if (!globalFlag.__kycForwardingWarned) warnIfForwardingIgnored(request.headers);
    }
    return originalEmit.apply(this, [event, ...args] as Parameters<typeof originalEmit>);
  } as typeof originalEmit;
}
