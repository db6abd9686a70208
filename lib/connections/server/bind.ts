import "server-only";

import { defaultConnection, liveConnection, type Connection } from "@/lib/connections/server/store";
import { CONNECTION_PARAM } from "@/lib/connections/types";
import type { Database } from "@/lib/db/client";
import { withAccount } from "@/lib/upstream/account";

/*
 * The connection a request works under: named by the `connection` query parameter of an API call or the
 * `/c/{connection}/` prefix of a page's address (proxy.ts turns it into a request header), else the default one.
 * Everything the work asks of the service inside `withConnection` speaks with that connection's key.
 */

/** The header proxy.ts sets on a page request from its address's prefix. */
export const CONNECTION_HEADER = "x-kyc-connection";

/** The named connection (a 404 naming `connection` when it is unknown or retired), or the default one. */
export async function resolveConnection(db: Database, id: string | null | undefined): Promise<Connection> {
  return id ? liveConnection(db, id) : defaultConnection(db);
}

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
