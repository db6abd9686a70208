import "server-only";

import { and, asc, desc, eq, gt, gte, isNull, lt, lte, sql, type SQL } from "drizzle-orm";

import { hasPermission, type PermissionHolder } from "@/lib/auth/permissions";
import { staffUsers } from "@/lib/auth/server/tables";
import { casePriority } from "@/lib/cases/priority";
import { ageBucketBounds, QUEUES, type Queue } from "@/lib/cases/rules";
import { cases, type CaseRow } from "@/lib/cases/server/tables";
import type { CaseQueueResponse, CaseSummary, OutcomeState, StaffRef } from "@/lib/cases/types";
import type { QueueQuery } from "@/lib/cases/validation";
import type { Database } from "@/lib/db/client";
import { maskName } from "@/lib/upstream/model/masking";

import { priorityScoreSql, REVERIFICATION_WAITING } from "./priority-sql";
import { withOtherOpenCases } from "./related";
import { listQueues } from "./routing";
import { DECIDED, ESCALATED } from "./rule-conditions";
import { openCaseText, PERSON_NAME_LEGACY } from "./sealed-text";

/*
 * The queues: which open and closed cases each lists (queueCondition, the one definition that listing,
 * counts, auto-assignment and a case's next and previous all read), its filters and order, and a page of it.
 */

/** The queues, defined once: listing, counts and next/previous all read them from here. */
export function queueCondition(queue: Queue, userId: string): SQL {
  const open = eq(cases.status, "open");
  switch (queue) {
    case "open":
      // One's own recommendation waiting for a second person is done here: it is listed in "confirming" only.
      return and(open, sql`not ${DECIDED}`, sql`not ${ESCALATED}`, sql`not ${awaitingOthers(userId)}`)!;
    case "mine":
      // Mine: what I hold and still have to act on, an escalation I took included.
      return and(open, eq(cases.assigneeId, userId), sql`not ${DECIDED}`)!;
    case "unassigned":
      return and(open, isNull(cases.assigneeId), sql`not ${DECIDED}`, sql`not ${ESCALATED}`)!;
    case "confirming":
      return and(open, eq(cases.outcomeState, "pending_confirmation"))!;
    case "escalated":
      return and(open, ESCALATED)!;
    case "decided":
      return and(open, DECIDED)!;
    case "closed":
      return eq(cases.status, "closed");
  }
}

/** This member's own recommendation, waiting for someone else's confirmation (four eyes). */
function awaitingOthers(userId: string): SQL {
  return sql`coalesce(${cases.outcomeState} = 'pending_confirmation' and ${cases.outcomeBy} = ${userId}, false)`;
}

const summaryColumns = {
  row: cases,
  assigneeEmail: staffUsers.email,
  assigneeName: staffUsers.name,
  reverificationWaiting: REVERIFICATION_WAITING,
};

/** A case as the queue lists it; its priority is computed at `now` (lib/cases/priority.ts). */
export function toSummary(
  row: CaseRow,
  assignee: StaffRef | null,
  { reverificationWaiting, now }: { reverificationWaiting: boolean; now: Date },
): CaseSummary {
  return {
    publicId: row.publicId,
    queueId: row.queueId,
    status: row.status,
    upstreamStatus: row.upstreamStatus,
    flags: row.flags,
    priority: casePriority({ flags: row.flags, dueAt: row.dueAt, reverificationWaiting }, now.getTime()),
    documentMasked: row.documentMasked,
    openedAt: row.openedAt.toISOString(),
    verificationCreatedAt: row.upstreamCreatedAt?.toISOString() ?? null,
    dueAt: row.dueAt.toISOString(),
    escalatedAt: row.escalatedAt?.toISOString() ?? null,
    closedAt: row.closedAt?.toISOString() ?? null,
    finalStatus: row.finalStatus,
    closedReason: row.closedReason,
    upstreamReviewState: row.upstreamReviewState,
    disagreement: row.disagreement,
    assignee,
    recommendation: row.recommendation,
    outcomeState: row.outcomeState as OutcomeState | null,
  };
}

/** Who reads the queue: their own cases ("mine", "open") and whether they see the person's name unmasked. */
export interface QueueViewer extends PermissionHolder {
  id: string;
}

/**
 * The person's name as this member may see it: whole with `personal_data.unmasked`, else masked by the dashboard's
 * one masking (lib/upstream/model/masking.ts). Null when none is stored, or it does not open (its key gone from the
 * ring): the queue row then shows none, and the verification's page says why.
 */
export function personNameFor(viewer: PermissionHolder, stored: string | null): string | null {
  const { text } = openCaseText("personName", stored, PERSON_NAME_LEGACY);
  if (text === null) return null;
  const seen = hasPermission(viewer, "personal_data.unmasked") ? text : maskName(text);
  return seen === "" ? null : seen;
}

/** A queue's filters and order in one connection's cases, shared by the list and by a case's next and previous. */
export function queueFilter(
  connectionId: string,
  query: Omit<QueueQuery, "page" | "per_page">,
  userId: string,
  now: Date,
): { where: SQL; order: SQL[] } {
  const conditions: SQL[] = [eq(cases.connectionId, connectionId), queueCondition(query.queue, userId)];
  if (query.flag) conditions.push(sql`${cases.flags} @> array[${query.flag}]::text[]`);
  if (query.overdue === "true")
    conditions.push(query.queue === "closed" ? sql`${cases.closedAt} > ${cases.dueAt}` : sql`${cases.dueAt} < ${now}`);
  if (query.age) {
    const { after, atOrBefore } = ageBucketBounds(query.age, now);
    if (after) conditions.push(gt(cases.openedAt, after));
    if (atOrBefore) conditions.push(lte(cases.openedAt, atOrBefore));
  }
  if (query.closed_from) conditions.push(gte(cases.closedAt, new Date(query.closed_from)));
  if (query.closed_to) conditions.push(lt(cases.closedAt, new Date(query.closed_to)));
  if (query.disagreement) conditions.push(eq(cases.disagreement, query.disagreement === "true"));
  if (query.queue_id) conditions.push(eq(cases.queueId, query.queue_id));
  const order =
    query.queue === "closed"
      ? [desc(cases.closedAt), asc(cases.id)]
      : query.sort === "due"
        ? [asc(cases.dueAt), asc(cases.id)]
        : query.sort === "priority"
          ? // The score the rows show (lib/cases/priority.ts), then the most overdue (or soonest due) first.
            [desc(priorityScoreSql(now)), asc(cases.dueAt), asc(cases.id)]
          : [asc(cases.openedAt), asc(cases.id)];
  return { where: and(...conditions)!, order };
}

/** A page of one connection's queue (lib/connections: the page's or the API call's connection). */
export async function listQueue(
  db: Database,
  connectionId: string,
  query: QueueQuery,
  viewer: QueueViewer,
  now = new Date(),
): Promise<CaseQueueResponse> {
  const userId = viewer.id;
  const { where, order } = queueFilter(connectionId, query, userId, now);
  const [rows, [total], countRows, queues] = await Promise.all([
    db
      .select(summaryColumns)
      .from(cases)
      .leftJoin(staffUsers, eq(staffUsers.id, cases.assigneeId))
      .where(where)
      .orderBy(...order)
      .limit(query.per_page)
      .offset((query.page - 1) * query.per_page),
    db
      .select({ count: sql<number>`count(*)::int` })
      .from(cases)
      .where(where),
    // Each queue's count from the same condition that lists it: the queues are defined once, in queueCondition.
    db
      .select(Object.fromEntries(QUEUES.map((name) => [name, sql<number>`count(*) filter (where ${queueCondition(name, userId)})::int`])))
      .from(cases)
      .where(eq(cases.connectionId, connectionId)),
    listQueues(db),
  ]);
  const counts = Object.fromEntries(QUEUES.map((name) => [name, Number(countRows[0]?.[name] ?? 0)])) as Record<Queue, number>;
  return {
    queue: query.queue,
    // Each row says whether its person has another open case (one query for the page).
    items: await withOtherOpenCases(
      db,
      rows.map(({ row, assigneeEmail, assigneeName, reverificationWaiting }) => ({
        ...toSummary(row, row.assigneeId && assigneeEmail ? { id: row.assigneeId, email: assigneeEmail, name: assigneeName ?? "" } : null, {
          reverificationWaiting: Boolean(reverificationWaiting),
          now,
        }),
        personName: personNameFor(viewer, row.personName),
      })),
    ),
    total: total?.count ?? 0,
    page: query.page,
    perPage: query.per_page,
    counts,
    queues,
  };
}
