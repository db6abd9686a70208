import "server-only";

import { and, eq, inArray, isNull, ne, sql } from "drizzle-orm";

import type { Database } from "@/lib/db/client";
import { publishLive } from "@/lib/db/live";

import { queueMessages } from "./notify";
import { notificationCases, notifications } from "./tables";

/*
 * Digests (issue 32): instead of one notification per overdue case (67 of them on a first start), one per member
 * and period, "12 cases overdue in your queue", linking to the queue filtered to overdue. The caller (the overdue
 * job, lib/cases/server/escalation.ts) says which cases are overdue and not handled for the member; this file
 * decides whether that is news:
 *
 * - a case is news to a member when none of their digests covered it yet. No news, no digest: the cases already
 *   told of are not told again every period;
 * - with news, the period's digest is made (one row per member, kind and period: the unique key, so two
 *   instances or a retried run make it once) covering every case given, the news and those still to handle from
 *   the member's earlier digests, which it replaces (they are marked read: one unread digest at a time). Its
 *   member gets one email; the shared chat channel gets none (a digest is a member's own);
 * - news later in the same period joins that period's digest, which is unread again (and says so on the live
 *   stream), without another email.
 *
 * A digest covers one connection's cases (issue 33): a member working two connections gets one for each, linking to
 * that connection's queue; "one unread digest at a time" holds per connection.
 *
 * So a first start, with every case already overdue, makes one digest per member and connection, and a member hears at
 * most one new digest per connection and DIGEST_PERIOD_MINUTES. Each case of a digest is handled for its member
 * (./handled.ts) when the case is; the digest counts the cases left and is read when none is.
 */

/** The period of a digest: at most one new digest per member in each (clock-aligned, UTC). */
const DIGEST_PERIOD_MINUTES = 60;

/** The period `now` falls in, as its start (ISO): with the connection, the digest's dedupe key. */
export function digestPeriod(now: Date, minutes = DIGEST_PERIOD_MINUTES): string {
  const size = minutes * 60_000;
  return new Date(Math.floor(now.getTime() / size) * size).toISOString();
}

interface DigestInput {
  userId: string;
  /** The connection of every case given. */
  connectionId: string;
  /** Every case overdue and not handled for the member now. */
  casePublicIds: readonly string[];
  /** The page the digest opens (the queue filtered to overdue). */
  link: string;
  now: Date;
  origin?: string;
}

type DigestOutcome = "none" | "created" | "grown";

/** The member's cases some digest of theirs already covered, among these. */
async function coveredCases(db: Database, userId: string, publicIds: readonly string[]): Promise<Set<string>> {
  const rows = await db
    .select({ publicId: notificationCases.casePublicId })
    .from(notificationCases)
    .innerJoin(notifications, eq(notifications.id, notificationCases.notificationId))
    .where(
      and(
        eq(notifications.userId, userId),
        eq(notifications.kind, "overdue_digest"),
        inArray(notificationCases.casePublicId, [...publicIds]),
      ),
    );
  return new Set(rows.map((row) => row.publicId));
}

/** Makes or grows the member's digest for the period when some case is news to them; answers which it did. */
export async function notifyOverdueDigest(db: Database, input: DigestInput): Promise<DigestOutcome> {
  const all = [...new Set(input.casePublicIds)];
  if (all.length === 0) return "none";
  const covered = await coveredCases(db, input.userId, all);
  const news = all.filter((publicId) => !covered.has(publicId));
  if (news.length === 0) return "none";
  // The period's digest of this connection: the unique key (member, kind, "", period and connection) makes it once.
  const dedupeKey = `${digestPeriod(input.now)} ${input.connectionId}`;
  const [made] = await db
    .insert(notifications)
    .values({
      userId: input.userId,
      kind: "overdue_digest",
      casePublicId: "",
      dedupeKey,
      link: input.link,
      connectionId: input.connectionId,
      createdAt: input.now,
    })
    .onConflictDoNothing({ target: [notifications.userId, notifications.kind, notifications.casePublicId, notifications.dedupeKey] })
    .returning({ id: notifications.id });
  if (made) {
    // Still to handle from the earlier digests: carried over (the caller listed them as still overdue).
    const carried = all.filter((publicId) => covered.has(publicId));
    const earlier = and(
      eq(notifications.userId, input.userId),
      eq(notifications.kind, "overdue_digest"),
      eq(notifications.connectionId, input.connectionId),
      ne(notifications.id, made.id),
      isNull(notifications.readAt),
    );
    const stillOpen = carried.length
      ? await db
          .selectDistinct({ publicId: notificationCases.casePublicId })
          .from(notificationCases)
          .innerJoin(notifications, eq(notifications.id, notificationCases.notificationId))
          .where(and(earlier, inArray(notificationCases.casePublicId, carried), isNull(notificationCases.handledAt)))
      : [];
    const rows = [...news, ...stillOpen.map((row) => row.publicId)];
    await db.insert(notificationCases).values(rows.map((casePublicId) => ({ notificationId: made.id, casePublicId })));
    await db.update(notifications).set({ readAt: input.now }).where(earlier);
    await publishLive(db, { topic: "notification", payload: { id: made.id }, userId: input.userId });
    await queueMessages(db, {
      kind: "overdue_digest",
      userIds: [input.userId],
      subject: { casePublicId: "", count: rows.length, link: input.link, connectionId: input.connectionId },
      origin: input.origin,
      chat: false,
    });
    return "created";
  }
  // The period's digest exists (made by an earlier run, or by another instance just now): the news joins it.
  const [current] = await db
    .select({ id: notifications.id })
    .from(notifications)
    .where(and(eq(notifications.userId, input.userId), eq(notifications.kind, "overdue_digest"), eq(notifications.dedupeKey, dedupeKey)));
  if (!current) return "none";
  const added = await db
    .insert(notificationCases)
    .values(news.map((casePublicId) => ({ notificationId: current.id, casePublicId })))
    .onConflictDoNothing()
    .returning({ publicId: notificationCases.casePublicId });
  if (added.length === 0) return "none";
  await db.update(notifications).set({ readAt: null, link: input.link }).where(eq(notifications.id, current.id));
  await publishLive(db, { topic: "notification", payload: { id: current.id }, userId: input.userId });
  return "grown";
}

/** Cases some digest still counts as to handle (for the overdue job's sweep: which of them are handled now). */
export async function casesDigestsAwait(db: Database, limit = 1000): Promise<string[]> {
  const rows = await db
    .selectDistinct({ publicId: notificationCases.casePublicId })
    .from(notificationCases)
    .where(isNull(notificationCases.handledAt))
    .limit(limit);
  return rows.map((row) => row.publicId);
}

/** Cases some unread notification is about (for the sweep: which of them are closed now). */
export async function casesWithUnread(db: Database, limit = 1000): Promise<string[]> {
  const rows = await db
    .selectDistinct({ publicId: notifications.casePublicId })
    .from(notifications)
    .where(and(isNull(notifications.readAt), ne(notifications.casePublicId, "")))
    .limit(limit);
  return rows.map((row) => row.publicId);
}

// Kept here so the digest's count has one definition: the cases of a digest not yet handled.
export const digestCasesLeft = sql<number>`(select count(*)::int from notification_cases nc
  where nc.notification_id = ${notifications.id} and nc.handled_at is null)`;
