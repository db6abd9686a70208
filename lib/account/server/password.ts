import "server-only";

import { recordEvent, type AuditEvent } from "@/lib/audit-trail/server/record";
import { hashPassword, verifyPassword } from "@/lib/auth/server/password";
import { revokeUserSessions } from "@/lib/auth/server/sessions";
import { getPasswordHash, setPassword } from "@/lib/auth/server/staff-store";
import type { StaffSession } from "@/lib/auth/types";
import type { ChangePasswordInput } from "@/lib/auth/validation";
import type { Database } from "@/lib/db/client";
import { AppError } from "@/lib/shared/errors";

type Actor = Pick<StaffSession, "id" | "email" | "sessionId">;

/** The current password given to change it is wrong (400, naming the field; the attempt is on the trail). */
export class WrongCurrentPasswordError extends AppError {
  constructor() {
    super("validation", "The current password is not correct.", { fields: ["currentPassword"] });
    this.name = "WrongCurrentPasswordError";
  }
}

/** The trail's record of a change of one's own password, made or refused. */
function passwordChange(actor: Actor, ip: string | null, outcome: "success" | "failure"): AuditEvent {
  return {
    actor: { id: actor.id, email: actor.email },
    action: "staff.password_change",
    target: { type: "staff", id: actor.id },
    outcome,
    ip,
  };
}

/**
 * A signed-in person replaces their password (required after an invitation). Other sessions end;
 * the current one stays. A wrong current password is a WrongCurrentPasswordError.
 */
export async function changeOwnPassword(
  db: Database,
  { actor, ip, input }: { actor: Actor; ip: string | null; input: ChangePasswordInput },
): Promise<void> {
  const stored = await getPasswordHash(db, actor.id);
  if (!stored || !(await verifyPassword(input.currentPassword, stored))) {
    await recordEvent(passwordChange(actor, ip, "failure"), db);
    throw new WrongCurrentPasswordError();
  }
  const passwordHash = await hashPassword(input.newPassword);
  await db.transaction(async (tx) => {
    const now = new Date();
    await setPassword(tx, actor.id, passwordHash, { mustChangePassword: false }, now);
    await revokeUserSessions(tx, actor.id, now, actor.sessionId);
    await recordEvent(passwordChange(actor, ip, "success"), tx);
  });
}
