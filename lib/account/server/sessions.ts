import "server-only";

import type { RequestContext } from "@/lib/audit-trail/server/context";
import { recordSuccess } from "@/lib/audit-trail/server/record";
import { toSessionView } from "@/lib/auth/server/session-view";
import { endSessionByPublicId, listLiveSessions, revokeUserSessions } from "@/lib/auth/server/sessions";
import type { SessionView } from "@/lib/auth/types";
import type { Database } from "@/lib/db/client";
import { AppError } from "@/lib/shared/errors";

/*
 * The member's own sessions, listed and ended (an admin's view of a member's is lib/auth/server/session-admin.ts).
 * Ending is a revocation of the session row, which every instance hears of at once (the session-change trigger),
 * so the session stops on its next request wherever it is; each end is on the audit trail.
 */

export async function ownSessions(db: Database, user: { id: string; sessionId: string }): Promise<SessionView[]> {
  return (await listLiveSessions(db, user.id)).map((summary) => toSessionView(summary, user.sessionId));
}

/** Ends one of the member's own sessions (any but, typically, the current one: ending it is signing out). */
export async function endOwnSession(db: Database, user: { id: string }, publicId: string, context: RequestContext): Promise<void> {
  await db.transaction(async (tx) => {
    if (!(await endSessionByPublicId(tx, user.id, publicId))) throw new AppError("not_found", "No such live session.");
    await recordSuccess(context, { action: "auth.session_end", target: { type: "staff", id: user.id }, details: { ended: 1 } }, tx);
  });
}

/** Ends every session of the member but this one. How many ended. */
export async function endOtherSessions(db: Database, user: { id: string; sessionId: string }, context: RequestContext): Promise<number> {
  return db.transaction(async (tx) => {
    const ended = await revokeUserSessions(tx, user.id, new Date(), user.sessionId);
    await recordSuccess(context, { action: "auth.session_end", target: { type: "staff", id: user.id }, details: { others: ended } }, tx);
    return ended;
  });
}
