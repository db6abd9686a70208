import "server-only";

import type { RequestContext } from "@/lib/audit-trail/server/context";
import { recordSuccess } from "@/lib/audit-trail/server/record";
import type { Database } from "@/lib/db/client";
import { AppError } from "@/lib/shared/errors";

import { toSessionView, type SessionView } from "./session-view";
import { endSessionByPublicId, listLiveSessions, revokeUserSessions } from "./sessions";
import { getStaff } from "./staff-store";

/*
 * Sessions people can see and end: a member their own, an admin anyone's. Ending is a revocation of the
 * session row, which every instance hears of at once (the session-change trigger), so the session stops on
 * its next request wherever it is; each end is on the audit trail.
 */

export async function ownSessions(db: Database, user: { id: string; sessionId: string }): Promise<SessionView[]> {
  return (await listLiveSessions(db, user.id)).map((summary) => toSessionView(summary, user.sessionId));
}

export async function memberSessions(db: Database, userId: string): Promise<SessionView[]> {
  if (!(await getStaff(db, userId))) throw new AppError("not_found", "No such staff member.");
  return (await listLiveSessions(db, userId)).map((summary) => toSessionView(summary));
}

/** Ends one of the member's own sessions (any but, typically, the current one: ending it is signing out). */
export async function endOwnSession(db: Database, user: { id: string }, publicId: string, context: RequestContext): Promise<void> {
  await db.transaction(async (tx) => {
    if (!(await endSessionByPublicId(tx, user.id, publicId))) throw new AppError("not_found", "No such live session.");
    await recordSuccess(
      context,
      {
        action: "auth.session_end",
        target: { type: "staff", id: user.id },
        details: { ended: 1 },
      },
      tx,
    );
  });
}

/** Ends every session of the member but this one. How many ended. */
export async function endOtherSessions(db: Database, user: { id: string; sessionId: string }, context: RequestContext): Promise<number> {
  return db.transaction(async (tx) => {
    const ended = await revokeUserSessions(tx, user.id, new Date(), user.sessionId);
    await recordSuccess(
      context,
      {
        action: "auth.session_end",
        target: { type: "staff", id: user.id },
        details: { others: ended },
      },
      tx,
    );
    return ended;
  });
}

/** An admin ends every session of a member. How many ended. */
export async function endMemberSessions(db: Database, userId: string, context: RequestContext): Promise<number> {
  return db.transaction(async (tx) => {
    if (!(await getStaff(tx, userId))) throw new AppError("not_found", "No such staff member.");
    const ended = await revokeUserSessions(tx, userId);
    await recordSuccess(
      context,
      {
        action: "staff.sessions_end",
        target: { type: "staff", id: userId },
        details: { ended },
      },
      tx,
    );
    return ended;
  });
}
