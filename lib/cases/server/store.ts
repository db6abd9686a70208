import "server-only";

import { and, asc, desc, eq, gt, gte, inArray, isNull, lt, lte, or, sql, type SQL } from "drizzle-orm";

import { staffUsers } from "@/lib/auth/server/tables";
import { routeCase } from "@/lib/cases/routing-rules";
import {
  ageBucketBounds,
  dueAt,
  flagsOf,
  needsConfirmation,
  needsPerson,
  OVERDUE_PRIORITY_BOOST,
  priorityOf,
  QUEUES,
  type CaseSettings,
  type Queue,
} from "@/lib/cases/rules";
import { caseEntries, cases, DEFAULT_QUEUE_ID, type CaseRow } from "@/lib/cases/server/tables";
import type { CaseDetail, CaseEntry, CaseEntryKind, CaseQueueResponse, CaseSummary, OutcomeState, StaffRef } from "@/lib/cases/types";
import type { CaseContextQuery, QueueQuery } from "@/lib/cases/validation";
import { config } from "@/lib/config";
import type { Database } from "@/lib/db/client";
import { isValidCpf, maskCpf } from "@/lib/shared/cpf";
import { isDecided, type Verification } from "@/lib/upstream/model/verification";

import { publishCaseChange } from "./live";
import { reverificationsOf, withOtherOpenCases } from "./related";
import { listQueues, loadRules } from "./routing";
import { openCaseText } from "./sealed-text";
import { legacyClearText } from "./text-reseal";
import { upstreamEventsOf } from "./timeline";

/*
 * Cases in the database: opening and refreshing them from what the upstream says (events and the sync
 * both land in `applyObservations`), closing them on a final status, and reading the queue and one case.
 * Opening is an `INSERT … ON CONFLICT` on the verification's public id, so two instances (or an event and
 * the sync) seeing the same verification at once make one case; transitions write one history entry each,
 * so applying the same observation twice changes nothing.
 */

export function caseSettings(): CaseSettings {
  const { redFlags, riskThreshold, slaHours } = config().cases;
  return { redFlags, riskThreshold, slaHours };
}

/** What a case keeps of a verification: no raw CPF, no names. */
export interface Observation {
  publicId: string;
  status: string;
  flags: string[];
  documentMasked: string | null;
  createdAt: Date | null;
  // Known when the verification was read, for routing a new case only (lib/cases/routing-rules.ts); not stored.
  flow?: string | null;
  journey?: string | null;
  riskScore?: number | null;
}

export function maskedDocument(verification: Pick<Verification, "document" | "documentMasked">): string | null {
  if (!verification.document) return null;
  if (verification.documentMasked) return verification.document;
  // Unmasked: keep only the masked form; anything that is not a CPF is not kept at all.
  return isValidCpf(verification.document) ? maskCpf(verification.document) : null;
}

export function observe(verification: Verification, settings: CaseSettings): Observation {
  const created = verification.createdAt ? new Date(verification.createdAt) : null;
  return {
    publicId: verification.publicId,
    status: verification.status,
    flags: flagsOf(verification, settings.riskThreshold),
    documentMasked: maskedDocument(verification),
    createdAt: created && !Number.isNaN(created.getTime()) ? created : null,
    flow: verification.flow ?? null,
    journey: verification.journey ?? null,
    riskScore: verification.riskScore,
  };
}

export interface ApplyResult {
  opened: string[];
  closed: string[];
}

/** Opens, refreshes or closes the cases these observations concern, in one transaction. */
export async function applyObservations(
  db: Database,
  observations: Observation[],
  settings: CaseSettings,
  now = new Date(),
): Promise<ApplyResult> {
  if (observations.length === 0) return { opened: [], closed: [] };
  return db.transaction(async (tx) => {
    await reopenCases(
      tx as unknown as Database,
      observations.filter((item) => item.status === "review").map((item) => item.publicId),
      settings,
      now,
    );
    const opened = await openOrRefresh(
      tx as unknown as Database,
      observations.filter((item) => needsPerson(item.status, item.flags, settings)),
      settings,
      now,
    );
    const closed: string[] = [];
    for (const item of observations.filter((entry) => isDecided(entry.status))) {
      if (await closeCase(tx as unknown as Database, item, now)) closed.push(item.publicId);
    }
    // Neither final nor needing a person (e.g. back to `started`): an open case only follows the status.
    const others = observations.filter((item) => !isDecided(item.status) && !needsPerson(item.status, item.flags, settings));
    for (const item of others) {
      await tx
        .update(cases)
        .set({ upstreamStatus: item.status, lastSeenAt: now, updatedAt: now })
        .where(and(eq(cases.publicId, item.publicId), eq(cases.status, "open")));
    }
    return { opened, closed };
  });
}

/**
 * When only the status is known (an event whose verification could not be read just now): open a review
 * case without flags, follow the status, or close on a final one; known flags are left as they are, and
 * the next sync fills them in. It never reopens a closed case: an event's status may be a late delivery,
 * and only the verification as read now (the listener's fetch, the sync's list) says it is back in review.
 */
export async function applyStatusOnly(
  db: Database,
  publicId: string,
  status: string,
  settings: CaseSettings,
  now = new Date(),
): Promise<void> {
  if (isDecided(status)) {
    await db.transaction(async (tx) => {
      await closeCase(tx as unknown as Database, { publicId, status, flags: [], documentMasked: null, createdAt: null }, now);
    });
    return;
  }
  if (status !== "review") {
    await db
      .update(cases)
      .set({ upstreamStatus: status, updatedAt: now })
      .where(and(eq(cases.publicId, publicId), eq(cases.status, "open")));
    return;
  }
  await db.transaction(async (tx) => {
    // Routed on what is known: no flags, flow, journey or risk yet (lib/cases/routing-rules.ts).
    const queueId = routeCase({ flags: [], openedAt: now }, await loadRules(tx as unknown as Database), now, DEFAULT_QUEUE_ID);
    const [row] = await tx
      .insert(cases)
      .values({ publicId, upstreamStatus: status, openedAt: now, dueAt: dueAt(now, settings.slaHours), updatedAt: now, queueId })
      .onConflictDoUpdate({
        target: cases.publicId,
        set: { upstreamStatus: status, updatedAt: now },
        setWhere: sql`${cases.status} = 'open'`,
      })
      .returning({ id: cases.id, inserted: sql<boolean>`(xmax = 0)` });
    if (row?.inserted) {
      await tx.insert(caseEntries).values({ caseId: row.id, at: now, kind: "opened", details: { status, flags: [] } });
      await publishCaseChange(tx as unknown as Database, "case.opened", publicId);
    }
  });
}

/**
 * A closed case whose verification is back in `review` reopens: the same case, a `reopened` entry in its
 * history, a fresh due time. The previous round's outcome stays in the history only, so the next one is
 * recorded (and confirmed) afresh; the assignee stays, who knows the case best. Conditional on `closed`,
 * so two instances seeing the same return reopen it once.
 */
async function reopenCases(db: Database, publicIds: string[], settings: CaseSettings, now: Date): Promise<void> {
  if (publicIds.length === 0) return;
  const rows = await db
    .update(cases)
    .set({
      status: "open",
      upstreamStatus: "review",
      openedAt: now,
      dueAt: dueAt(now, settings.slaHours),
      closedAt: null,
      finalStatus: null,
      disagreement: false,
      recommendation: null,
      reasons: null,
      outcomeComment: null,
      outcomeBy: null,
      outcomeAt: null,
      outcomeState: null,
      confirmedBy: null,
      confirmedAt: null,
      updatedAt: now,
    })
    .where(and(inArray(cases.publicId, publicIds), eq(cases.status, "closed")))
    .returning({ id: cases.id, publicId: cases.publicId });
  if (rows.length === 0) return;
  await db.insert(caseEntries).values(rows.map((row) => ({ caseId: row.id, at: now, kind: "reopened", details: { status: "review" } })));
  await publishCaseChange(
    db,
    "case.opened",
    rows.map((row) => row.publicId),
  );
}

/**
 * When a case's clock starts: the verification's creation, so age, due time and "oldest first" say how long
 * the person has been waiting, not when the dashboard happened to notice (that first sight is the case's
 * "opened" entry). Never in the future: a clock ahead of ours would make a case younger than nothing.
 */
export function caseStart(item: Pick<Observation, "createdAt">, now: Date): Date {
  return item.createdAt && item.createdAt.getTime() < now.getTime() ? item.createdAt : now;
}

const STARTS_EARLIER = sql`(excluded.opened_at < ${cases.openedAt} and not exists (
  select 1 from ${caseEntries} where ${caseEntries.caseId} = ${cases.id} and ${caseEntries.kind} = 'reopened'))`;

async function openOrRefresh(db: Database, items: Observation[], settings: CaseSettings, now: Date): Promise<string[]> {
  if (items.length === 0) return [];
  // A new case is routed once, here; an existing one keeps its queue (the conflict's update leaves queue_id).
  const rules = await loadRules(db);
  // One statement per batch; `xmax = 0` tells a fresh insert from an update of an existing row.
  const rows = await db
    .insert(cases)
    .values(
      items.map((item) => ({
        publicId: item.publicId,
        upstreamStatus: item.status,
        flags: item.flags,
        priority: priorityOf(item.flags, settings),
        documentMasked: item.documentMasked,
        upstreamCreatedAt: item.createdAt,
        openedAt: caseStart(item, now),
        dueAt: dueAt(caseStart(item, now), settings.slaHours),
        queueId: routeCase({ ...item, openedAt: caseStart(item, now) }, rules, now, DEFAULT_QUEUE_ID),
        lastSeenAt: now,
        updatedAt: now,
      })),
    )
    .onConflictDoUpdate({
      target: cases.publicId,
      set: {
        upstreamStatus: sql`excluded.upstream_status`,
        flags: sql`excluded.flags`,
        // An escalated case keeps its raise (lib/cases/server/escalation.ts).
        priority: sql`excluded.priority + case when ${cases.escalatedAt} is not null then ${OVERDUE_PRIORITY_BOOST} else 0 end`,
        documentMasked: sql`coalesce(excluded.document_masked, ${cases.documentMasked})`,
        upstreamCreatedAt: sql`coalesce(excluded.upstream_created_at, ${cases.upstreamCreatedAt})`,
        // A case first seen without its verification's creation time (an event alone, or opened before the
        // clock counted from the creation) learns it here; a reopened case keeps its return to review.
        openedAt: sql`case when ${STARTS_EARLIER} then excluded.opened_at else ${cases.openedAt} end`,
        dueAt: sql`case when ${STARTS_EARLIER} then excluded.due_at else ${cases.dueAt} end`,
        lastSeenAt: sql`excluded.last_seen_at`,
        updatedAt: sql`excluded.updated_at`,
      },
      // A closed case keeps its history as it was.
      setWhere: sql`${cases.status} = 'open'`,
    })
    .returning({ id: cases.id, publicId: cases.publicId, inserted: sql<boolean>`(xmax = 0)` });
  const fresh = rows.filter((row) => row.inserted);
  if (fresh.length > 0) {
    const byId = new Map(items.map((item) => [item.publicId, item]));
    await db.insert(caseEntries).values(
      fresh.map((row) => ({
        caseId: row.id,
        at: now,
        kind: "opened",
        details: { status: byId.get(row.publicId)?.status ?? null, flags: byId.get(row.publicId)?.flags ?? [] },
      })),
    );
    await publishCaseChange(
      db,
      "case.opened",
      fresh.map((row) => row.publicId),
    );
  }
  return fresh.map((row) => row.publicId);
}

// The effective recommendation (confirmed, or recorded without needing confirmation) against the final status.
const DISAGREES = (finalStatus: string) => sql`coalesce(${cases.outcomeState} in ('confirmed', 'recorded') and (
  (${cases.recommendation} = 'approve' and ${finalStatus} <> 'approved') or
  (${cases.recommendation} = 'reprove' and ${finalStatus} <> 'reproved')), false)`;

async function closeCase(db: Database, item: Observation, now: Date): Promise<boolean> {
  const [row] = await db
    .update(cases)
    .set({
      status: "closed",
      upstreamStatus: item.status,
      finalStatus: item.status,
      closedAt: now,
      disagreement: DISAGREES(item.status),
      updatedAt: now,
    })
    .where(and(eq(cases.publicId, item.publicId), eq(cases.status, "open")))
    .returning({ id: cases.id, disagreement: cases.disagreement });
  if (!row) return false;
  await db
    .insert(caseEntries)
    .values({ caseId: row.id, at: now, kind: "closed", details: { status: item.status, disagreement: row.disagreement } });
  await publishCaseChange(db, "case.closed", item.publicId);
  return true;
}

// ---- reading -------------------------------------------------------------------------------------------

// The stages of lib/cases/rules.ts `stageOf`, as SQL (a test pins the two together).
const EFFECTIVE = sql`coalesce(${cases.outcomeState} in ('confirmed', 'recorded'), false)`;
const ESCALATED = sql`(${EFFECTIVE} and ${cases.recommendation} = 'escalate')`;
const DECIDED = sql`(${EFFECTIVE} and ${cases.recommendation} in ('approve', 'reprove'))`;

/** The queues, defined once: listing, counts and next/previous all read them from here. */
export function queueCondition(queue: Queue, userId: string): SQL {
  const open = eq(cases.status, "open");
  switch (queue) {
    case "open":
      return and(open, sql`not ${DECIDED}`, sql`not ${ESCALATED}`)!;
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

const summaryColumns = {
  row: cases,
  assigneeEmail: staffUsers.email,
  assigneeName: staffUsers.name,
};

function toSummary(row: CaseRow, assignee: StaffRef | null): CaseSummary {
  return {
    publicId: row.publicId,
    queueId: row.queueId,
    status: row.status,
    upstreamStatus: row.upstreamStatus,
    flags: row.flags,
    priority: row.priority,
    documentMasked: row.documentMasked,
    openedAt: row.openedAt.toISOString(),
    verificationCreatedAt: row.upstreamCreatedAt?.toISOString() ?? null,
    dueAt: row.dueAt.toISOString(),
    escalatedAt: row.escalatedAt?.toISOString() ?? null,
    closedAt: row.closedAt?.toISOString() ?? null,
    finalStatus: row.finalStatus,
    disagreement: row.disagreement,
    assignee,
    recommendation: row.recommendation,
    outcomeState: row.outcomeState as OutcomeState | null,
  };
}

/** A queue's filters and order, shared by the list and by a case's next and previous. */
function queueFilter(query: Omit<QueueQuery, "page" | "per_page">, userId: string, now: Date): { where: SQL; order: SQL[] } {
  const conditions: SQL[] = [queueCondition(query.queue, userId)];
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
          ? [desc(cases.priority), asc(cases.openedAt), asc(cases.id)]
          : [asc(cases.openedAt), asc(cases.id)];
  return { where: and(...conditions)!, order };
}

export async function listQueue(db: Database, query: QueueQuery, userId: string, now = new Date()): Promise<CaseQueueResponse> {
  const { where, order } = queueFilter(query, userId, now);
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
      .from(cases),
    listQueues(db),
  ]);
  const counts = Object.fromEntries(QUEUES.map((name) => [name, Number(countRows[0]?.[name] ?? 0)])) as Record<Queue, number>;
  return {
    queue: query.queue,
    // Each row says whether its person has another open case (one query for the page).
    items: await withOtherOpenCases(
      db,
      rows.map(({ row, assigneeEmail, assigneeName }) =>
        toSummary(row, row.assigneeId && assigneeEmail ? { id: row.assigneeId, email: assigneeEmail, name: assigneeName ?? "" } : null),
      ),
    ),
    total: total?.count ?? 0,
    page: query.page,
    perPage: query.per_page,
    counts,
    queues,
  };
}

export async function findCaseRow(db: Database, publicId: string): Promise<CaseRow | undefined> {
  const [row] = await db.select().from(cases).where(eq(cases.publicId, publicId)).limit(1);
  return row;
}

async function staffRefs(db: Database, ids: Array<string | null>): Promise<Map<string, StaffRef>> {
  const wanted = [...new Set(ids.filter((id): id is string => id !== null))];
  if (wanted.length === 0) return new Map();
  const rows = await db
    .select({ id: staffUsers.id, email: staffUsers.email, name: staffUsers.name })
    .from(staffUsers)
    .where(inArray(staffUsers.id, wanted));
  return new Map(rows.map((row) => [row.id, row]));
}

/**
 * The cases before and after this one in a queue, in the queue's own filters and order. The case itself is
 * kept in the window even when it has just left the queue (an outcome recorded, say), so "next" still goes on
 * from where the analyst is.
 */
async function neighboursIn(
  db: Database,
  publicId: string,
  context: CaseContextQuery,
  userId: string,
): Promise<{ previous: string | null; next: string | null }> {
  const { where, order } = queueFilter(context, userId, new Date());
  const ordered = sql.join(order, sql`, `);
  const window = db
    .select({
      publicId: cases.publicId,
      previous: sql<string | null>`lag(${cases.publicId}) over (order by ${ordered})`.as("previous"),
      next: sql<string | null>`lead(${cases.publicId}) over (order by ${ordered})`.as("next"),
    })
    .from(cases)
    .where(or(where, eq(cases.publicId, publicId)))
    .as("ordered");
  const [row] = await db.select().from(window).where(eq(window.publicId, publicId)).limit(1);
  return { previous: row?.previous ?? null, next: row?.next ?? null };
}

/** One case with its history and its neighbours in a queue (by default the open queue, oldest first), or null. */
export async function getCase(
  db: Database,
  publicId: string,
  context: CaseContextQuery = { queue: "open", sort: "age" },
  userId = "00000000-0000-0000-0000-000000000000",
): Promise<CaseDetail | null> {
  const row = await findCaseRow(db, publicId);
  if (!row) return null;
  const entries = await db.select().from(caseEntries).where(eq(caseEntries.caseId, row.id)).orderBy(asc(caseEntries.id));
  const assigneeOf = (details: Record<string, unknown>) => (typeof details.assigneeId === "string" ? details.assigneeId : null);
  const staff = await staffRefs(db, [
    row.assigneeId,
    row.outcomeBy,
    row.confirmedBy,
    ...entries.flatMap((entry) => [entry.actorId, assigneeOf(entry.details), entry.redactedBy]),
  ]);
  const ref = (id: string | null) => (id ? (staff.get(id) ?? null) : null);
  const { previous, next } = await neighboursIn(db, publicId, context, userId);
  const legacyClear = await legacyClearText(db);
  const comment = openCaseText("outcomeComment", row.outcomeComment, legacyClear);
  return {
    ...toSummary(row, ref(row.assigneeId)),
    reasons: row.reasons ?? [],
    outcomeComment: comment.text,
    outcomeCommentUnreadable: comment.unreadable,
    erasedAt: row.erasedAt?.toISOString() ?? null,
    outcomeBy: ref(row.outcomeBy),
    outcomeAt: row.outcomeAt?.toISOString() ?? null,
    confirmedBy: ref(row.confirmedBy),
    confirmedAt: row.confirmedAt?.toISOString() ?? null,
    firstSeenAt: entries.find((entry) => entry.kind === "opened")?.at.toISOString() ?? null,
    needsConfirmation: row.recommendation !== null && needsConfirmation(row.recommendation, row.flags),
    entries: entries.map((entry): CaseEntry => ({
      id: entry.id,
      at: entry.at.toISOString(),
      kind: entry.kind as CaseEntryKind,
      actor: ref(entry.actorId),
      ...openCaseText("entry", entry.text, legacyClear),
      redacted: entry.redactedAt ? { by: ref(entry.redactedBy), at: entry.redactedAt.toISOString() } : null,
      // An assignment keeps the staff id; the timeline names the assignee by the email resolved here.
      details: assigneeOf(entry.details)
        ? { ...entry.details, assigneeEmail: ref(assigneeOf(entry.details))?.email ?? null }
        : entry.details,
    })),
    upstreamEvents: await upstreamEventsOf(db, publicId),
    previous,
    next,
    ...(await reverificationsOf(db, row.id).then(({ reverifications, waitingFor }) => ({
      reverifications,
      waitingForReverification: waitingFor,
    }))),
  };
}
