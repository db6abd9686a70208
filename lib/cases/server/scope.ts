import "server-only";

import { and, eq, type SQL } from "drizzle-orm";

import { cases } from "@/lib/cases/server/tables";
import { currentConnectionId } from "@/lib/upstream/account";

/*
 * A case's work (an assignment, a note, an outcome, a confirmation, a move, a re-verification) acts on the case of the
 * connection it runs under: the route kit binds the request's connection (lib/connections), so a case of another
 * connection is "no case" here, whatever id is typed. Reads name their connection explicitly (./queue.ts, ./detail.ts).
 */

/** The case of `publicId` in the connection the work speaks as. */
export function caseHere(publicId: string): SQL {
  return and(eq(cases.publicId, publicId), eq(cases.connectionId, currentConnectionId()))!;
}

/** The connection the work speaks as, for a read by id (./detail.ts `findCaseRow`). */
export function connectionHere(): string {
  return currentConnectionId();
}
