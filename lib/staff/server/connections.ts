import "server-only";

import { recordEvent } from "@/lib/audit-trail/server/record";
import { assertHeld, OwnAccessError } from "@/lib/auth/server/delegation";
import { lockStaffAccess, staffAccess } from "@/lib/auth/server/staff-access";
import { StaffNotFoundError } from "@/lib/auth/server/staff-store";
import type { StaffSession } from "@/lib/auth/types";
import { grantsOf, setGrants, type ConnectionGrant } from "@/lib/connections/server/access";
import type { Database } from "@/lib/db/client";
import type { StaffConnectionsResponse } from "@/lib/staff/types";

/*
 * Which connections a member may use, and what each withholds from their role (lib/connections/server/access.ts),
 * as the staff page reads and sets it. Setting it follows the rules of every change of access (./staff.ts): nobody
 * changes their own, and a member changes only accounts whose permissions they all hold. Written on the trail with the
 * connections' ids and the withheld permissions' names (no secret, no personal data); takes effect on the member's
 * next request (it is read on every request, never cached in the session).
 */

export async function connectionsOf(db: Database, id: string): Promise<StaffConnectionsResponse> {
  return { connections: await grantsOf(db, id) };
}

export async function changeConnections(
  db: Database,
  {
    actor,
    ip,
    id,
    grants,
  }: { actor: Pick<StaffSession, "id" | "email" | "permissions">; ip: string | null; id: string; grants: ConnectionGrant[] | null },
): Promise<StaffConnectionsResponse> {
  if (id === actor.id) throw new OwnAccessError("account");
  await db.transaction(async (tx) => {
    await lockStaffAccess(tx);
    const [me, target] = [(await staffAccess(tx, [actor.id]))[0], (await staffAccess(tx, [id]))[0]];
    if (!target) throw new StaffNotFoundError();
    assertHeld({ permissions: me && !me.disabled ? me.permissions : [] }, target.permissions);
    await setGrants(tx, id, grants);
    const details =
      grants === null
        ? { connections: "all" }
        : Object.fromEntries(
            grants.map((grant) => [
              grant.connectionId,
              grant.withheld.length ? `withholds ${grant.withheld.join(" ")}` : "all permissions",
            ]),
          );
    await recordEvent(
      {
        actor: { id: actor.id, email: actor.email },
        action: "staff.connections",
        target: { type: "staff", id },
        outcome: "success",
        ip,
        details,
      },
      tx,
    );
  });
  return connectionsOf(db, id);
}
