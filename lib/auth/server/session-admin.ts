import "server-only";

import type { RequestContext } from "@/lib/audit-trail/server/context";
import { recordSuccess } from "@/lib/audit-trail/server/record";
import type { Database } from "@/lib/db/client";
import { AppError } from "@/lib/shared/errors";

import { revokeUserSessions } from "./sessions";
import { getStaff } from "./staff-store";

/*
 * Sessions an admin can end, anyone's (listed once per device by lib/staff/server/sessions.ts; a member's own:
 * lib/account/server/sessions.ts). Ending is a revocation of the session row, which every instance hears of at once (the session-change trigger), so the
 * session stops on its next request wherever it is; each end is on the audit trail.
 */

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
