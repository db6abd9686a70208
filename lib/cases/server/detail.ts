import "server-only";

import { and, asc, eq, inArray, or, sql } from "drizzle-orm";

import { staffUsers } from "@/lib/auth/server/tables";
import { needsConfirmation } from "@/lib/cases/rules";
import { caseEntries, cases, verificationIndex, type CaseRow } from "@/lib/cases/server/tables";
import type { CaseDetail, CaseEntry, CaseEntryKind, StaffRef } from "@/lib/cases/types";
import type { CaseContextQuery } from "@/lib/cases/validation";
import type { Database } from "@/lib/db/client";

import { queueFilter, toSummary } from "./queue";
import { reverificationsOf } from "./related";
import { openCaseText } from "./sealed-text";
import { legacyClearText } from "./text-reseal";
import { upstreamEventsOf } from "./timeline";

/*
 * One case as the case page and the API read it: its row, its history with the staff it names, its neighbours
 * in the queue it was opened from, the upstream's events and its re-verifications.
 */

/** The case of a verification, in one connection (null: whichever holds it, for the titular report). */
export async function findCaseRow(db: Database, publicId: string, connectionId: string | null = null): Promise<CaseRow | undefined> {
  const inConnection = connectionId === null ? undefined : eq(cases.connectionId, connectionId);
  const [row] = await db
    .select()
    .from(cases)
    .where(and(eq(cases.publicId, publicId), inConnection))
    .limit(1);
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
  connectionId: string,
  publicId: string,
  context: CaseContextQuery,
  userId: string,
): Promise<{ previous: string | null; next: string | null }> {
  const { where, order } = queueFilter(connectionId, context, userId, new Date());
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

/** The verification's ref_id as the search index knows it, or null. */
async function refIdOf(db: Database, publicId: string): Promise<string | null> {
  const [row] = await db.select({ refId: verificationIndex.refId }).from(verificationIndex).where(eq(verificationIndex.publicId, publicId));
  return row?.refId ?? null;
}

/**
 * One case of a connection (null: whichever holds it, for the titular report) with its history and its neighbours in
 * a queue (by default the open queue, oldest first), or null: a verification of another connection has none here.
 */
export async function getCase(
  db: Database,
  connectionId: string | null,
  publicId: string,
  context: CaseContextQuery = { queue: "open", sort: "age" },
  userId = "00000000-0000-0000-0000-000000000000",
): Promise<CaseDetail | null> {
  const row = await findCaseRow(db, publicId, connectionId);
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
  const { previous, next } = await neighboursIn(db, row.connectionId, publicId, context, userId);
  const legacyClear = await legacyClearText(db);
  const comment = openCaseText("outcomeComment", row.outcomeComment, legacyClear);
  const { reverifications, waitingFor } = await reverificationsOf(db, row.id);
  return {
    ...toSummary(row, ref(row.assigneeId), { reverificationWaiting: waitingFor !== null, now: new Date() }),
    reasons: row.reasons ?? [],
    outcomeComment: comment.text,
    outcomeCommentUnreadable: comment.unreadable,
    erasedAt: row.erasedAt?.toISOString() ?? null,
    outcomeBy: ref(row.outcomeBy),
    outcomeAt: row.outcomeAt?.toISOString() ?? null,
    confirmedBy: ref(row.confirmedBy),
    confirmedAt: row.confirmedAt?.toISOString() ?? null,
    firstSeenAt: entries.find((entry) => entry.kind === "opened")?.at.toISOString() ?? null,
    refId: await refIdOf(db, publicId),
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
    upstreamEvents: await upstreamEventsOf(db, publicId, row.connectionId),
    previous,
    next,
    reverifications,
    waitingForReverification: waitingFor,
  };
}
