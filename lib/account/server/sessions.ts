import "server-only";

import { groupByDevice, sessionsOfDevice } from "@/lib/account/server/devices";
import type { SessionDto } from "@/lib/account/types";
import type { RequestContext } from "@/lib/audit-trail/server/context";
import { recordSuccess } from "@/lib/audit-trail/server/record";
import { endSessionByPublicId, listLiveSessions, revokeUserSessions } from "@/lib/auth/server/sessions";
import type { Database } from "@/lib/db/client";
import { AppError } from "@/lib/shared/errors";

/*
 * The member's own sessions, listed once per device (devices.ts) and ended a device at a time (an admin's view of a member's is lib/auth/server/session-admin.ts).
 * Ending is a revocation of the session row, which every instance hears of at once (the session-change trigger),
 * so the session stops on its next request wherever it is; each end is on the audit trail.
 */

export async function ownSessions(db: Database, user: { id: string; sessionId: string }): Promise<SessionDto[]> {
  return groupByDevice(await listLiveSessions(db, user.id), user.sessionId).map((device) => ({
    ...device,
    current: device.current === true,
  }));
}

/**
 * Ends one of the member's own devices: every live session of the device that `publicId` (one of its sessions)
 * belongs to (typically not the current one: ending that is signing out there). How many sessions ended.
 */
export async function endOwnSession(db: Database, user: { id: string }, publicId: string, context: RequestContext): Promise<number> {
  return db.transaction(async (tx) => {
    const device = sessionsOfDevice(await listLiveSessions(tx, user.id), publicId);
    if (device.length === 0) throw new AppError("not_found", "No such live session.");
    let ended = 0;
    for (const session of device) if (await endSessionByPublicId(tx, user.id, session.id)) ended += 1;
    await recordSuccess(context, { action: "auth.session_end", target: { type: "staff", id: user.id }, details: { ended } }, tx);
    return ended;
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
