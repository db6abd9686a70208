import "server-only";

import http from "node:http";

import { PEER_HEADER } from "../../shared/client-address";

/*
 * Called once from instrumentation.ts: before Next handles a request, write the socket's peer address
 * into PEER_HEADER (replacing any client-sent value), so route handlers can tell the real peer from a
 * forged X-Forwarded-For. Next keeps the socket to itself; this is the one place it is still reachable.
 */
const globalFlag = globalThis as typeof globalThis & { __kycPeerHeaderInstalled?: boolean };

export function installPeerAddressHeader(): void {
  if (globalFlag.__kycPeerHeaderInstalled) return;
  globalFlag.__kycPeerHeaderInstalled = true;
  const originalEmit = http.Server.prototype.emit;
  http.Server.prototype.emit = function emit(this: http.Server, event: string | symbol, ...args: unknown[]) {
    if (event === "request") {
      const request = args[0] as http.IncomingMessage;
      request.headers[PEER_HEADER] = request.socket?.remoteAddress ?? "";
    }
    return originalEmit.apply(this, [event, ...args] as Parameters<typeof originalEmit>);
  } as typeof originalEmit;
}
