import "server-only";

import type { Connection } from "@/lib/connections/server/store";
import { CONNECTION_PARAM } from "@/lib/connections/types";
import { withAccount } from "@/lib/upstream/account";

/*
 * The connection a request works under: named by the `connection` query parameter of an API call or the
 * `/c/{connection}/` prefix of a page's address (proxy.ts turns it into a request header), else the member's default
 * (./access.ts `memberConnection`).
 * Everything the work asks of the service inside `withConnection` speaks with that connection's key.
 */

/** The header proxy.ts sets on a page request from its address's prefix. */
export const CONNECTION_HEADER = "x-kyc-connection";

export function withConnection<T>(connection: Connection, work: () => T): T {
  return withAccount(connection.account, work);
}

/** Takes the `connection` parameter out of a query record, so a route's own schema never sees it. */
export function takeConnectionParam(record: Record<string, string | string[]>): string | undefined {
  const value = record[CONNECTION_PARAM];
  delete record[CONNECTION_PARAM];
  if (Array.isArray(value)) return value[0];
  return value;
}
