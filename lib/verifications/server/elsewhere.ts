import "server-only";

import { withConnection } from "@/lib/connections/server/bind";
import type { Connection } from "@/lib/connections/server/store";
import { coreClient } from "@/lib/upstream/core";

/*
 * A verification id opened under a connection that does not hold it: the service answers 404 (another integration or
 * environment reads as nothing there). The page then asks the member's other connections (those they may use:
 * lib/connections/server/access.ts; another is never named, nor asked), one call each, and names the one that holds it, so a link copied from a production tab and opened under sandbox explains itself. Only the
 * fact is kept: the answer's data is dropped unread.
 */

export interface Elsewhere {
  publicId: string;
  id: string;
  name: string;
  environment: "sandbox" | "production";
}

/** At most this many other connections are asked (a deployment has a handful). */
const MAX_ASKED = 5;

/** `usable`: the live connections the member may use (lib/connections/server/page.ts `pageConnections`). */
export async function locateElsewhere(publicId: string, usable: Connection[], currentId: string): Promise<Elsewhere | null> {
  const others = usable.filter((connection) => connection.id !== currentId).slice(0, MAX_ASKED);
  const found = await Promise.all(
    others.map(async (connection) => {
      try {
        await withConnection(connection, () => coreClient().getVerification(publicId));
        return { publicId, id: connection.id, name: connection.name, environment: connection.environment };
      } catch {
        // Not there (404), or that connection could not say (refused, unavailable): not named.
        return null;
      }
    }),
  );
  return found.find((item) => item !== null) ?? null;
}
