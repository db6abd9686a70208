import "server-only";

import { withConnection } from "@/lib/connections/server/bind";
import { allConnectionRows, liveConnection } from "@/lib/connections/server/store";
import type { Database } from "@/lib/db/client";
import { coreClient } from "@/lib/upstream/core";

/*
 * A verification id opened under a connection that does not hold it: the service answers 404 (another integration or
 * environment reads as nothing there). The page then asks the member's other connections, one call each, and names
 * the one that holds it, so a link copied from a production tab and opened under sandbox explains itself. Only the
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

export async function locateElsewhere(db: Database, publicId: string, currentId: string): Promise<Elsewhere | null> {
  const others = (await allConnectionRows(db)).filter((row) => row.retiredAt === null && row.id !== currentId).slice(0, MAX_ASKED);
  const found = await Promise.all(
    others.map(async (row) => {
      try {
        const connection = await liveConnection(db, row.id);
        await withConnection(connection, () => coreClient().getVerification(publicId));
        return { publicId, id: row.id, name: row.name, environment: row.environment };
      } catch {
        // Not there (404), or that connection could not say (refused, unavailable): not named.
        return null;
      }
    }),
  );
  return found.find((item) => item !== null) ?? null;
}
