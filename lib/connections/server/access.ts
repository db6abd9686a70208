import "server-only";

import { eq, inArray, sql, type AnyColumn, type SQL } from "drizzle-orm";

import { PERMISSIONS, type Permission } from "@/lib/auth/permissions";
import { forgetLocally } from "@/lib/auth/server/session-invalidation";
import type { SessionConnectionGrant, StaffSession } from "@/lib/auth/types";
import { defaultConnection, liveConnection, liveConnections, type Connection } from "@/lib/connections/server/store";
import { staffConnectionAccess } from "@/lib/connections/server/tables";
import type { Database } from "@/lib/db/client";
import { AppError } from "@/lib/shared/errors";

/*
 * Permissions per connection (issue 33, item 4). A role's permissions apply on the connections the member is given:
 * every one by default (no row in `staff_connection_access`), else those listed, each less what it withholds. So a
 * member may be given the sandbox only, or keep `personal_data.unmasked` and `media.read` on the sandbox while
 * production withholds them. A connection the member may not use is, to them, a connection that does not exist
 * (404 naming `connection`, never listed), and the work they do under one speaks with its permissions narrowed
 * (`narrowTo`): the route kit and the page guard both pass through here (lib/api/route.ts, ./page.ts).
 */

/** A connection the member is given, less what it withholds (read with the session: StaffSession.connectionGrants). */
export type ConnectionGrant = SessionConnectionGrant;

/** The member's grants, or null: every connection, nothing withheld. */
export async function grantsOf(db: Database, staffId: string): Promise<ConnectionGrant[] | null> {
  const rows = await db
    .select({ connectionId: staffConnectionAccess.connectionId, withheld: staffConnectionAccess.withheld })
    .from(staffConnectionAccess)
    .where(eq(staffConnectionAccess.staffId, staffId));
  if (rows.length === 0) return null;
  const known = new Set<string>(PERMISSIONS);
  return rows.map((row) => ({
    connectionId: row.connectionId,
    withheld: row.withheld.filter((name): name is Permission => known.has(name)),
  }));
}

export function mayUse(grants: ConnectionGrant[] | null, connectionId: string): boolean {
  return grants === null || grants.some((grant) => grant.connectionId === connectionId);
}

/** The member as they act under `connectionId`: their role's permissions less what that connection withholds. */
export function narrowTo<U extends Pick<StaffSession, "permissions">>(user: U, grants: ConnectionGrant[] | null, connectionId: string): U {
  const withheld = grants?.find((grant) => grant.connectionId === connectionId)?.withheld ?? [];
  if (withheld.length === 0) return user;
  return { ...user, permissions: user.permissions.filter((permission) => !withheld.includes(permission)) };
}

function noSuchConnection(): AppError {
  return new AppError("not_found", "No such connection.", { fields: ["connection"] });
}

/**
 * The connection a member's request works under: the one it names, if they may use it (else 404, as an unknown one);
 * when it names none, the default connection if they may use it, else the first live one they may.
 */
export async function memberConnection(
  db: Database,
  named: string | null | undefined,
  grants: ConnectionGrant[] | null,
): Promise<Connection> {
  if (named) {
    const connection = await liveConnection(db, named);
    if (!mayUse(grants, connection.id)) throw noSuchConnection();
    return connection;
  }
  const fallback = await defaultConnection(db);
  if (mayUse(grants, fallback.id)) return fallback;
  const first = (await liveConnections(db)).find((connection) => mayUse(grants, connection.id));
  if (!first) throw new AppError("forbidden", "No connection is open to you: an administrator gives you one on the staff page.");
  return first;
}

/**
 * Of these members, those who may use `connectionId` (in the order given): what is told of a connection's case (a
 * notification, an email) reaches no member to whom that connection does not exist.
 */
export async function membersUsing(db: Database, staffIds: readonly string[], connectionId: string): Promise<string[]> {
  if (staffIds.length === 0) return [];
  const rows = await db
    .select({ staffId: staffConnectionAccess.staffId, connectionId: staffConnectionAccess.connectionId })
    .from(staffConnectionAccess)
    .where(inArray(staffConnectionAccess.staffId, [...staffIds]));
  const given = new Map<string, ConnectionGrant[]>();
  for (const row of rows) given.set(row.staffId, [...(given.get(row.staffId) ?? []), { connectionId: row.connectionId, withheld: [] }]);
  return staffIds.filter((id) => mayUse(given.get(id) ?? null, connectionId));
}

/** In SQL, for a query choosing members (auto-assignment): the member `staffId` may use `connectionId`. */
export function mayUseSql(staffId: AnyColumn, connectionId: string): SQL {
  const given = staffConnectionAccess;
  return sql`(not exists (select 1 from ${given} where ${given.staffId} = ${staffId})
    or exists (select 1 from ${given} where ${given.staffId} = ${staffId} and ${given.connectionId} = ${connectionId}))`;
}

/** The live connections a member may use (the header's switcher, GET /api/connections). */
export async function usableConnections(db: Database, grants: ConnectionGrant[] | null): Promise<Connection[]> {
  return (await liveConnections(db)).filter((connection) => mayUse(grants, connection.id));
}

/** Replaces a member's grants (null: every connection, nothing withheld). Unknown connections are refused by name. */
export async function setGrants(db: Database, staffId: string, grants: ConnectionGrant[] | null): Promise<void> {
  if (grants !== null) {
    const live = new Set((await liveConnections(db)).map((connection) => connection.id));
    const unknown = grants.filter((grant) => !live.has(grant.connectionId));
    if (unknown.length > 0) throw new AppError("validation", "Names a connection that is not live.", { fields: ["connections"] });
  }
  await db.transaction(async (tx) => {
    await tx.delete(staffConnectionAccess).where(eq(staffConnectionAccess.staffId, staffId));
    if (grants && grants.length > 0)
      await tx
        .insert(staffConnectionAccess)
        .values(grants.map((grant) => ({ staffId, connectionId: grant.connectionId, withheld: grant.withheld })));
  });
  // The member's sessions carry their grants: this process forgets them now, the others on the trigger's notification.
  forgetLocally({ userId: staffId });
}
