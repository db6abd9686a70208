import "server-only";

import { and, eq, inArray, isNull, notExists, sql } from "drizzle-orm";

import type { Database } from "@/lib/db/client";
import { publishLive } from "@/lib/db/live";

import { notificationCases, notifications } from "./tables";

/*
 * Read when handled (issue 32): a case's notifications become read when the case is handled, in the database,
 * so every instance and every open tab agrees. For everyone told of it when the case itself is handled (a
 * recommendation recorded, an outcome confirmed or not, the case closed); for one member when it is handled for
 * them only (reassigned away from them, or they opened it). In a digest the case is marked handled for that
 * digest's member; a digest with no case left to handle is read.
 *
 * Call it inside the transaction of what handles the case, before telling anyone of what comes next (an
 * outcome's "to confirm" is made after, unread).
 */

interface HandledScope {
  /** Only this member's notifications (reassigned away, opened); absent: everyone's. */
  userId?: string;
  /** Only the cases' rows in digests (the case is no longer overdue work, but may still wait for a confirmation). */
  digestsOnly?: boolean;
  now?: Date;
}

export async function markCasesHandled(db: Database, casePublicIds: readonly string[], scope: HandledScope = {}): Promise<number> {
  const ids = [...new Set(casePublicIds)].filter(Boolean);
  if (ids.length === 0) return 0;
  const now = scope.now ?? new Date();
  const mine = scope.userId ? eq(notifications.userId, scope.userId) : undefined;
  const read = scope.digestsOnly
    ? []
    : await db
        .update(notifications)
        .set({ readAt: now })
        .where(and(inArray(notifications.casePublicId, ids), isNull(notifications.readAt), mine))
        .returning({ id: notifications.id, userId: notifications.userId });
  const handled = await db
    .update(notificationCases)
    .set({ handledAt: now })
    .where(
      and(
        inArray(notificationCases.casePublicId, ids),
        isNull(notificationCases.handledAt),
        scope.userId
          ? inArray(
              notificationCases.notificationId,
              db.select({ id: notifications.id }).from(notifications).where(eq(notifications.userId, scope.userId)),
            )
          : undefined,
      ),
    )
    .returning({ notificationId: notificationCases.notificationId });
  const touched = [...new Set(handled.map((row) => row.notificationId))];
  const emptied = touched.length
    ? await db
        .update(notifications)
        .set({ readAt: now })
        .where(
          and(
            inArray(notifications.id, touched),
            isNull(notifications.readAt),
            notExists(
              db
                .select({ one: sql`1` })
                .from(notificationCases)
                .where(and(eq(notificationCases.notificationId, notifications.id), isNull(notificationCases.handledAt))),
            ),
          ),
        )
        .returning({ id: notifications.id, userId: notifications.userId })
    : [];
  // Digests whose count went down but are still unread changed too: their members' bells hear of each.
  const stillUnread = touched.length
    ? await db
        .select({ id: notifications.id, userId: notifications.userId })
        .from(notifications)
        .where(and(inArray(notifications.id, touched), isNull(notifications.readAt)))
    : [];
  const changed = new Map<string, number>();
  for (const row of [...read, ...emptied, ...stillUnread]) changed.set(row.userId, row.id);
  for (const [userId, id] of changed) await publishLive(db, { topic: "notification", payload: { id }, userId });
  return read.length + emptied.length;
}
