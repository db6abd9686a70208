import "server-only";

import { and, count, desc, eq, inArray, isNull, or, sql } from "drizzle-orm";

import { staffUsers } from "@/lib/auth/server/tables";
import type { ConnectionGrant } from "@/lib/connections/server/access";
import { connections } from "@/lib/connections/server/tables";
import type { Database } from "@/lib/db/client";
import { notificationPath, type MarkReadResponse, type NotificationsResponse } from "@/lib/notifications/types";
import type { MarkReadInput } from "@/lib/notifications/validation";

import { digestCasesLeft } from "./digest";
import { notifications } from "./tables";

// The member's own notifications (the bell): the latest 50 and how many are unread, each naming its case by its
// ref_id, a digest with its cases still to handle, and the connection it belongs to, its link under it; only those of
// the connections the member may use (issue 33: given the sandbox only, a production case's notification made before
// is not theirs to see). Marking read touches only the caller's rows, whatever ids they name.

export const INBOX_SIZE = 50;

/** The member's notifications they may see: their account's, and those of the connections they may use. */
function visibleTo(userId: string, grants: ConnectionGrant[] | null) {
  const mine = eq(notifications.userId, userId);
  if (grants === null) return mine;
  const usable = grants.map((grant) => grant.connectionId);
  return and(mine, or(isNull(notifications.connectionId), usable.length ? inArray(notifications.connectionId, usable) : undefined));
}

async function unreadCount(db: Database, userId: string, grants: ConnectionGrant[] | null): Promise<number> {
  const [row] = await db
    .select({ n: count() })
    .from(notifications)
    .where(and(visibleTo(userId, grants), isNull(notifications.readAt)));
  return Number(row?.n ?? 0);
}

export async function listNotifications(db: Database, userId: string, grants: ConnectionGrant[] | null): Promise<NotificationsResponse> {
  const rows = await db
    .select({
      id: notifications.id,
      kind: notifications.kind,
      casePublicId: notifications.casePublicId,
      caseRef: notifications.caseRef,
      link: notifications.link,
      connectionId: notifications.connectionId,
      connectionName: connections.name,
      // Who acted, as the case page names a member: their name, else their email.
      actorName: sql<string | null>`nullif(coalesce(nullif(${staffUsers.name}, ''), ${staffUsers.email}), '')`,
      // Only a digest counts its cases; the other kinds are about one case (or none).
      casesLeft: sql<number | null>`case when ${notifications.kind} = 'overdue_digest' then ${digestCasesLeft} end`,
      createdAt: notifications.createdAt,
      readAt: notifications.readAt,
    })
    .from(notifications)
    .leftJoin(staffUsers, eq(staffUsers.id, notifications.actorId))
    .leftJoin(connections, eq(connections.id, notifications.connectionId))
    .where(visibleTo(userId, grants))
    .orderBy(desc(notifications.id))
    .limit(INBOX_SIZE);
  return {
    items: rows.map((row) => ({
      id: row.id,
      kind: row.kind,
      casePublicId: row.casePublicId,
      caseRef: row.caseRef,
      actorName: row.actorName,
      cases: row.casesLeft === null ? null : Number(row.casesLeft),
      href: notificationPath(row.kind, row),
      connection: row.connectionId ? { id: row.connectionId, name: row.connectionName ?? row.connectionId } : null,
      createdAt: row.createdAt.toISOString(),
      read: row.readAt !== null,
    })),
    unread: await unreadCount(db, userId, grants),
  };
}

export async function markRead(
  db: Database,
  userId: string,
  grants: ConnectionGrant[] | null,
  input: MarkReadInput,
): Promise<MarkReadResponse> {
  const mine = and(visibleTo(userId, grants), isNull(notifications.readAt));
  const rows = await db
    .update(notifications)
    .set({ readAt: new Date() })
    .where(input.all ? mine : and(mine, inArray(notifications.id, input.ids ?? [])))
    .returning({ id: notifications.id });
  return { marked: rows.length, unread: await unreadCount(db, userId, grants) };
}
