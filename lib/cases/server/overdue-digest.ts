import "server-only";

import { and, eq, inArray, lt, ne, or, sql } from "drizzle-orm";

import { cases } from "@/lib/cases/server/tables";
import { membersUsing } from "@/lib/connections/server/access";
import type { Database } from "@/lib/db/client";
import { casesDigestsAwait, casesWithUnread, notifyOverdueDigest } from "@/lib/notifications/server/digest";
import { markCasesHandled } from "@/lib/notifications/server/handled";
import { membersHolding } from "@/lib/notifications/server/notify";

import { queueLeads } from "./queue-leads";
import { EFFECTIVE } from "./rule-conditions";

/*
 * The overdue job's notifications (issue 32), run by the SLA escalation under its lease (./escalation.ts):
 *
 * - digests: each member concerned by overdue cases still to work (no recommendation recorded or waiting, the
 *   case open) hears of them in one digest per period (lib/notifications/server/digest.ts), "12 cases overdue
 *   in your queue", linking to the queue filtered to overdue. Concerned: the case's assignee, and its queue's
 *   leads (a queue without an active lead: the members holding cases.assign), as long as they can read cases and
 *   may use the case's connection; one digest per connection, linking to that connection's queue (issue 33);
 * - the sweep: what the case actions did not mark handled themselves (a case closed by the service's final
 *   status, a recommendation recorded through any path) is marked now, from the cases as they are, so an
 *   unread notification never outlives its case by more than a run.
 */

/** A case to work: open, without a recommendation recorded or waiting for confirmation (a rejected one is back). */
const TO_WORK = and(
  eq(cases.status, "open"),
  sql`not ${EFFECTIVE}`,
  or(sql`${cases.outcomeState} is null`, ne(cases.outcomeState, "pending_confirmation")),
)!;

/** At most this many overdue cases are read per run: a digest counts at most as many. */
const MAX_OVERDUE = 2000;

interface OverdueCase {
  publicId: string;
  connectionId: string;
  queueId: string;
  assigneeId: string | null;
}

/**
 * Who hears of each overdue case: its assignee, and its queue's leads (or, with none, the members who assign), among
 * those who may use its connection; keyed by member, then connection.
 */
async function membersConcerned(db: Database, overdue: OverdueCase[]): Promise<Map<string, Map<string, OverdueCase[]>>> {
  const readers = new Set((await membersHolding(db, "cases.read")).map((member) => member.id));
  const leadsOf = await queueLeads(
    db,
    overdue.map((item) => item.queueId),
    readers,
  );
  const usable = new Map<string, Set<string>>();
  for (const connectionId of new Set(overdue.map((item) => item.connectionId)))
    usable.set(connectionId, new Set(await membersUsing(db, [...readers], connectionId)));
  const concerned = new Map<string, Map<string, OverdueCase[]>>();
  for (const item of overdue) {
    const told = new Set(leadsOf(item.queueId));
    if (item.assigneeId && readers.has(item.assigneeId)) told.add(item.assigneeId);
    for (const userId of told) {
      if (!usable.get(item.connectionId)?.has(userId)) continue;
      const mine = concerned.get(userId) ?? new Map<string, OverdueCase[]>();
      mine.set(item.connectionId, [...(mine.get(item.connectionId) ?? []), item]);
      concerned.set(userId, mine);
    }
  }
  return concerned;
}

/** The queue filtered to overdue, as this member's cases make it: theirs, one routing queue, or every one. */
function digestLink(userId: string, items: readonly OverdueCase[]): string {
  const search = new URLSearchParams();
  if (items.every((item) => item.assigneeId === userId)) search.set("queue", "mine");
  else search.set("queue", "open");
  search.set("overdue", "true");
  const queues = new Set(items.map((item) => item.queueId));
  if (search.get("queue") === "open" && queues.size === 1) search.set("queue_id", [...queues][0]!);
  return `/cases?${search.toString()}`;
}

/** Makes the period's digests; answers how many members got a new or grown one. */
export async function sendOverdueDigests(db: Database, now: Date): Promise<number> {
  const overdue = await db
    .select({ publicId: cases.publicId, connectionId: cases.connectionId, queueId: cases.queueId, assigneeId: cases.assigneeId })
    .from(cases)
    .where(and(TO_WORK, lt(cases.dueAt, now)))
    .orderBy(cases.dueAt)
    .limit(MAX_OVERDUE);
  if (overdue.length === 0) return 0;
  let told = 0;
  for (const [userId, perConnection] of await membersConcerned(db, overdue)) {
    let news = false;
    for (const [connectionId, items] of perConnection) {
      const outcome = await db.transaction((tx) =>
        notifyOverdueDigest(tx as unknown as Database, {
          userId,
          connectionId,
          casePublicIds: items.map((item) => item.publicId),
          link: digestLink(userId, items),
          now,
        }),
      );
      news ||= outcome !== "none";
    }
    if (news) told += 1;
  }
  return told;
}

/** Marks handled what the case actions left: digests' cases no longer to work, notifications of closed cases. */
export async function sweepHandled(db: Database, now: Date): Promise<void> {
  const awaited = await casesDigestsAwait(db);
  if (awaited.length) {
    const stillToWork = await db
      .select({ publicId: cases.publicId })
      .from(cases)
      .where(and(inArray(cases.publicId, awaited), TO_WORK));
    const open = new Set(stillToWork.map((row) => row.publicId));
    await markCasesHandled(
      db,
      awaited.filter((publicId) => !open.has(publicId)),
      { now, digestsOnly: true },
    );
  }
  const unread = await casesWithUnread(db);
  if (unread.length) {
    const closed = await db
      .select({ publicId: cases.publicId })
      .from(cases)
      .where(and(inArray(cases.publicId, unread), eq(cases.status, "closed")));
    await markCasesHandled(
      db,
      closed.map((row) => row.publicId),
      { now },
    );
  }
}
