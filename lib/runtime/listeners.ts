import "server-only";

import type { Server } from "node:http";

import { onDrain } from "./lifecycle";

/*
 * The HTTP servers this process answers on, noted as connections arrive (lib/auth/server/peer-address.ts sees each:
 * Next keeps its server to itself). Draining closes their listeners, so a proxy learns at once that this instance is
 * stopping: its next connection here is refused and it sends the request to another instance without having sent
 * anything (nginx's `proxy_next_upstream error`, HAProxy's `retry-on conn-failure` with `option redispatch`). nginx
 * watches no readiness endpoint (its checks are passive): left open, a draining instance kept receiving requests
 * under load until the grace ran out. Connections already open are still served: the requests in flight are
 * answered, and a keep-alive connection's next request too until the process exits.
 */

const servers = ((globalThis as typeof globalThis & { __kycServers?: Set<Server> }).__kycServers ??= new Set());

/** Notes a server that accepted a connection; draining will close its listener. */
export function noteServer(server: Server): void {
  if (servers.has(server)) return;
  servers.add(server);
  onDrain("listeners", closeListeners);
}

/** Stops every noted server accepting connections (idle keep-alive ones are closed too); how many were listening. */
export function closeListeners(): number {
  let closed = 0;
  for (const server of servers) {
    if (!server.listening) continue;
    server.close();
    closed += 1;
  }
  servers.clear();
  return closed;
}
