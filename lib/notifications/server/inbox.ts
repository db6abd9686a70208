import "server-only";

import { and, count, desc, eq, inArray, isNull, sql } from "drizzle-orm";

import { staffUsers } from "@/lib/auth/server/tables";
import type { Database } from "@/lib/db/client";
import { notificationPath, type MarkReadResponse, type NotificationsResponse } from "@/lib/notifications/types";
import type { MarkReadInput } from "@/lib/notifications/validation";

import { digestCasesLeft } from "./digest";
import { notifications } from "./tables";

// The member's own notifications (the bell): the latest 50 and how many are unread, each naming its case by its
// ref_id, a digest with its cases still to handle; marking read touches only the caller's rows, whatever ids
// they name.

export const INBOX_SIZE = 50;

async function unreadCount(db: Database, userId: string): Promise<number> {
  const [row] = await db
    .select({ n: count() })
    .from(notifications)
    .where(and(eq(notifications.userId, userId), isNull(notifications.readAt)));
  return Number(row?.n ?? 0);
}

export async function listNotifications(db: Database, userId: string): Promise<NotificationsResponse> {
  const rows = await db
    .select({
      id: notifications.id,
      kind: notifications.kind,
      casePublicId: notifications.casePublicId,
      caseRef: notifications.caseRef,
      link: notifications.link,
      // Who acted, as the case page names a member: their name, else their email.
      actorName: sql<string | null>`nullif(coalesce(nullif(${staffUsers.name}, ''), ${staffUsers.email}), '')`,
      // Only a digest counts its cases; the other kinds are about one case (or none).
      casesLeft: sql<number | null>`case when ${notifications.kind} = 'overdue_digest' then ${digestCasesLeft} end`,
      createdAt: notifications.createdAt,
      readAt: notifications.readAt,
    })
    .from(notifications)
    .leftJoin(staffUsers, eq(staffUsers.id, notifications.actorId))
    .where(eq(notifications.userId, userId))
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
      href: row.link ?? notificationPath(row.kind, row.casePublicId),
      createdAt: row.createdAt.toISOString(),
      read: row.readAt !== null,
    })),
    unread: await unreadCount(db, userId),
  };
}

export async function markRead(db: Database, userId: string, input: MarkReadInput): Promise<MarkReadResponse> {
  const mine = and(eq(notifications.userId, userId), isNull(notifications.readAt));
  const rows = await db
    .update(notifications)
    .set({ readAt: new Date() })
    .where(input.all ? mine : and(mine, inArray(notifications.id, input.ids ?? [])))
    .returning({ id: notifications.id });
  return { marked: rows.length, unread: await unreadCount(db, userId) };
}
