import "server-only";

import { desc, eq } from "drizzle-orm";

import { withConnection } from "@/lib/connections/server/bind";
import type { Connection } from "@/lib/connections/server/store";
import type { Database } from "@/lib/db/client";
import { log } from "@/lib/log";
import { PRIMARY_CONNECTION } from "@/lib/shared/connection-path";
import { withUpstreamSource } from "@/lib/upstream/call-count";
import { coreClient } from "@/lib/upstream/core";
import { isUpstreamError } from "@/lib/upstream/errors";
import type { Verification } from "@/lib/upstream/model/verification";
import { verificationEvents } from "@/lib/webhooks/server/tables";

/*
 * Which connection a verification event belongs to (issue 33, item 3): the one whose key reads the verification.
 * The service's contract makes that a fact one can ask: a key reads only its own integration's and environment's
 * verifications, anything else is a 404. So:
 *
 * 1. one live connection: it;
 * 2. an earlier event of the verification was routed: the same connection (no upstream call);
 * 3. else every live connection is asked for the verification at once; the first in the admins' order that reads it
 *    owns it, and its read goes to the listeners with the change (`VerificationChange.verification`), so the case
 *    listener does not read it a second time.
 *    A connection that cannot answer now (unreachable, its key refused) is passed over; when the others said "not
 *    mine" and one could not answer, the delivery is retried later (thrown), so an event is not filed under the wrong
 *    connection because the right one was down. When every connection answers 404, or none can answer at all (the
 *    service is down: the event is not held back for hours), it is filed under `primary` (else the first), as every
 *    event was before connections existed; the second case is logged (`webhook_connection_unconfirmed`).
 *
 * The envelope's `tenant_public_id` names the account, not its environment (the sandbox and production of one
 * integration share it), so it cannot choose between them alone; it is kept on the event for the day connections
 * learn their tenant.
 */
/** The event's connection, with the verification as its key read it when the routing had to ask (case 3). */
export interface RoutedEvent {
  connection: Connection;
  verification?: Verification;
}

export async function connectionOfEvent(tx: Database, live: Connection[], publicId: string): Promise<RoutedEvent> {
  if (live.length <= 1) return { connection: live[0] ?? throwNoConnection() };
  const [earlier] = await tx
    .select({ connectionId: verificationEvents.connectionId })
    .from(verificationEvents)
    .where(eq(verificationEvents.publicId, publicId))
    .orderBy(desc(verificationEvents.id))
    .limit(1);
  const known = earlier && live.find((connection) => connection.id === earlier.connectionId);
  if (known) return { connection: known };
  // Asked at once (one round trip, not one per connection); the admins' order decides between two that read it.
  const answers = await Promise.all(
    live.map(async (connection) => {
      try {
        const verification = await withConnection(connection, () =>
          withUpstreamSource("job:webhooks.process", () => coreClient().getVerification(publicId)),
        );
        return { connection, reads: true as const, verification };
      } catch (error) {
        return { connection, reads: false as const, refused: isUpstreamError(error) && error.kind === "not_found", error };
      }
    }),
  );
  const owner = answers.find((answer) => answer.reads);
  if (owner?.reads) return { connection: owner.connection, verification: owner.verification };
  const refused = answers.filter((answer) => !answer.reads && answer.refused).length;
  const unanswered = answers.find((answer) => !answer.reads && !answer.refused);
  const failure = unanswered && !unanswered.reads ? unanswered.error : undefined;
  // Some connections said "not mine" and another could not answer: it may be that one's; ask again at the retry.
  if (failure !== undefined && refused > 0) throw failure;
  // None could answer (the service is down): filed as before connections existed, so the event is not held for hours.
  if (failure !== undefined) log.warn("webhook_connection_unconfirmed", { connection: fallbackOf(live).id, error: failure });
  return { connection: fallbackOf(live) };
}

function fallbackOf(live: Connection[]): Connection {
  return live.find((connection) => connection.id === PRIMARY_CONNECTION) ?? live[0]!;
}

function throwNoConnection(): never {
  throw new Error("no live connection: an event cannot be filed until an administrator adds one");
}
