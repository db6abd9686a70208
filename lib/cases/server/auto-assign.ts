import "server-only";

import { and, eq, inArray, isNull, ne, sql } from "drizzle-orm";

import { recordEvent } from "@/lib/audit-trail/server";
import { staffUsers } from "@/lib/auth/server/tables";
import { caseEntries, caseQueueMembers, cases } from "@/lib/cases/server/tables";
import { mayUseSql } from "@/lib/connections/server/access";
import type { Database } from "@/lib/db/client";
import { log } from "@/lib/log";
import { notify } from "@/lib/notifications/server/notify";
import { kickOutbox } from "@/lib/notifications/server/outbox";

import { publishCaseChange } from "./live";
import { queueCondition } from "./queue";
import { routingSettings } from "./routing";

/*
 * Auto-assignment (off by default): a case waiting unassigned in a queue goes to the queue's member holding the
 * fewest open cases, among those under the team's capacity, skipping members who are away or disabled.
 *
 * Races between instances: each case is assigned in its own transaction that first locks the settings row
 * (FOR UPDATE), so two instances assigning at once take turns: the second counts the first's assignment
 * and never pushes a member past the capacity; the UPDATE is conditional on the case being unassigned, so
 * the same case raced twice is assigned once. The lock is taken before any case row, always in that order,
 * and outside the transaction that opened the case where the caller can (the sync, availability), so the
 * lock never waits behind a long transaction.
 */

// A held case: the "mine" queue (open, held, not yet decided).
const holds = (userId: ReturnType<typeof sql>) =>
  sql`(${cases.status} = 'open' and ${cases.assigneeId} = ${userId} and not coalesce(${cases.outcomeState} in ('confirmed', 'recorded') and ${cases.recommendation} in ('approve', 'reprove'), false))`;

/*
 * What counts against a member's capacity: the work they hold. Their held cases, and their open monitoring alerts
 * (lib/monitoring/server/routing.ts: an alert is routed and assigned like a case, and holding one is work too). The
 * alerts are read by their table's name: the monitoring feature sits above this one (docs/architecture.md).
 */
const loadOf = (userId: ReturnType<typeof sql>) =>
  sql<number>`((select count(*) from ${cases} where ${holds(userId)}) + (select count(*) from monitoring_alerts a where a.status = 'open' and a.assignee_id = ${userId}))::int`;

/** What is being assigned: its queue, its connection, and who must not be given it back (an escalation's author). */
export interface Assignable {
  queueId: string;
  connectionId: string;
  exclude?: string | null;
}

/** Who an item is given to: a member of its queue. */
interface Member {
  userId: string;
  email: string;
}

/**
 * The queue's member to give one more item to: the one holding the least work (loadOf), among those under the
 * capacity, neither away nor disabled, who may use the item's connection; null when nobody fits. Called (by
 * autoAssignEach) after locking the settings row, so two passes take turns and the second counts the first's.
 */
async function leastLoadedMember(tx: Database, item: Assignable, capacity: number): Promise<Member | null> {
  const load = loadOf(sql`${caseQueueMembers.userId}`);
  const [member] = await tx
    .select({ userId: caseQueueMembers.userId, email: staffUsers.email, load })
    .from(caseQueueMembers)
    .innerJoin(staffUsers, eq(staffUsers.id, caseQueueMembers.userId))
    .where(
      and(
        eq(caseQueueMembers.queueId, item.queueId),
        eq(staffUsers.disabled, false),
        eq(staffUsers.away, false),
        item.exclude ? ne(caseQueueMembers.userId, item.exclude) : undefined,
        // Never to a member who may not use the item's connection (issue 33): to them the item does not exist.
        mayUseSql(caseQueueMembers.userId, item.connectionId),
        sql`${load} < ${capacity}`,
      ),
    )
    .orderBy(load, caseQueueMembers.userId)
    .limit(1);
  return member ? { userId: member.userId, email: member.email } : null;
}

/**
 * One kind of work auto-assignment hands out (cases, below; monitoring alerts, lib/monitoring/server/routing.ts): how
 * to read one item still waiting, claim it for a member, and record the assignment. The pass is autoAssignEach's.
 */
export interface AutoAssignKind<Item extends Assignable> {
  /** The log line of an item that failed (a deadlock victim, say): it waits unassigned for a person. */
  failure: string;
  /** The item if it still waits (open, unassigned), read in the pass's transaction; null otherwise. */
  waiting: (tx: Database, key: string) => Promise<Item | null>;
  /** The conditional update (on the item still waiting): whether this pass won it. */
  claim: (tx: Database, item: Item, member: Member, now: Date) => Promise<boolean>;
  /** What the assignment leaves, in the same transaction: its entry, the member told, its audit event. */
  record: (tx: Database, item: Item, member: Member, now: Date) => Promise<void>;
}

/**
 * The auto-assignment pass, one item at a time, each in its own transaction that first locks the settings row (the
 * races: see above): when the team's switch is on, the item still waiting goes to its queue's least loaded member,
 * claimed by a conditional update, then recorded. Answers the items assigned, by key.
 */
export async function autoAssignEach<Item extends Assignable>(
  db: Database,
  keys: string[],
  kind: AutoAssignKind<Item>,
  now: Date,
): Promise<Array<{ key: string; assigneeId: string }>> {
  const done: Array<{ key: string; assigneeId: string }> = [];
  for (const key of keys) {
    try {
      const assigneeId = await db.transaction(async (raw) => {
        const tx = raw as unknown as Database;
        const settings = await routingSettings(tx, true);
        if (!settings.autoAssign) return null;
        const item = await kind.waiting(tx, key);
        if (!item) return null;
        const member = await leastLoadedMember(tx, item, settings.capacity);
        if (!member || !(await kind.claim(tx, item, member, now))) return null;
        await kind.record(tx, item, member, now);
        return member.userId;
      });
      if (assigneeId) done.push({ key, assigneeId });
    } catch (error) {
      // One item failing leaves it unassigned in its queue for a person or the next pass.
      log.error(kind.failure, { error });
    }
  }
  return done;
}

/** A case waiting for auto-assignment. */
interface WaitingCase extends Assignable {
  id: string;
  publicId: string;
}

const caseKind: AutoAssignKind<WaitingCase> = {
  failure: "case_auto_assign_failed",
  async waiting(tx, publicId) {
    const [item] = await tx
      .select({
        id: cases.id,
        publicId: cases.publicId,
        connectionId: cases.connectionId,
        queueId: cases.queueId,
        outcomeBy: cases.outcomeBy,
      })
      .from(cases)
      .where(and(eq(cases.publicId, publicId), queueCondition("unassigned", "00000000-0000-0000-0000-000000000000")));
    if (!item) return null;
    // Nobody is given back a case they escalated (lib/cases/server/assignment.ts, assignCase).
    return { id: item.id, publicId: item.publicId, queueId: item.queueId, connectionId: item.connectionId, exclude: item.outcomeBy };
  },
  async claim(tx, item, member, now) {
    const [row] = await tx
      .update(cases)
      .set({ assigneeId: member.userId, assignedAt: now, updatedAt: now })
      .where(and(eq(cases.id, item.id), isNull(cases.assigneeId), eq(cases.status, "open")))
      .returning({ id: cases.id });
    return !!row;
  },
  async record(tx, item, member, now) {
    const [entry] = await tx
      .insert(caseEntries)
      .values({ caseId: item.id, at: now, kind: "assigned", details: { assigneeId: member.userId, auto: true } })
      .returning({ id: caseEntries.id });
    // The member hears of it (in the app, and by email or chat when configured), once per assignment.
    await notify(tx, { userIds: [member.userId], kind: "case_assigned", casePublicId: item.publicId, dedupeKey: `assign:${entry!.id}` });
    await publishCaseChange(tx, "case.assigned", item.publicId);
    await recordEvent(
      {
        actor: null,
        action: "case.assign",
        target: { type: "verification", id: item.publicId },
        outcome: "success",
        details: { assignee: member.email, auto: true },
      },
      tx,
    );
  },
};

/** Assigns each of these cases if auto-assignment is on and it still waits; answers the cases assigned. */
export async function autoAssign(
  db: Database,
  publicIds: string[],
  now = new Date(),
): Promise<Array<{ publicId: string; assigneeId: string }>> {
  if (publicIds.length === 0) return [];
  const done = await autoAssignEach(db, publicIds, caseKind, now);
  if (done.length) void kickOutbox();
  return done.map(({ key, assigneeId }) => ({ publicId: key, assigneeId }));
}

/**
 * A member away or disabled: their open, undecided cases go back to their queues unassigned (an entry and a
 * `case.unassign` event each, the reason named), in the caller's transaction (their alerts go with them:
 * lib/account/server/availability.ts). Answers the released cases' ids, for auto-assignment once the caller has
 * committed.
 */
export async function releaseCasesOf(
  tx: Database,
  userId: string,
  reason: "away" | "disabled",
  actor: { id: string; email: string } | null,
  ip: string | null,
  now = new Date(),
): Promise<string[]> {
  const rows = await tx
    .update(cases)
    .set({ assigneeId: null, assignedAt: null, updatedAt: now })
    .where(holds(sql`${userId}`))
    .returning({ id: cases.id, publicId: cases.publicId });
  if (rows.length === 0) return [];
  await tx.insert(caseEntries).values(
    rows.map((row) => ({
      caseId: row.id,
      at: now,
      actorId: actor?.id ?? null,
      kind: "unassigned",
      details: { assigneeId: null, reason },
    })),
  );
  await publishCaseChange(
    tx,
    "case.unassigned",
    rows.map((row) => row.publicId),
  );
  for (const row of rows) {
    await recordEvent(
      { actor, ip, action: "case.unassign", target: { type: "verification", id: row.publicId }, outcome: "success", details: { reason } },
      tx,
    );
  }
  return rows.map((row) => row.publicId);
}

/** Unassigned cases waiting in these queues (or all), oldest first: for a catch-up pass after a change. */
export async function waitingCases(db: Database, queueIds?: string[], limit = 500): Promise<string[]> {
  const rows = await db
    .select({ publicId: cases.publicId })
    .from(cases)
    .where(
      and(queueCondition("unassigned", "00000000-0000-0000-0000-000000000000"), queueIds ? inArray(cases.queueId, queueIds) : undefined),
    )
    .orderBy(cases.openedAt)
    .limit(limit);
  return rows.map((row) => row.publicId);
}
