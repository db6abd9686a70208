import "server-only";

import { and, asc, desc, eq, inArray, ne, sql } from "drizzle-orm";

import { staffUsers } from "@/lib/auth/server/tables";
import { caseEntries, caseReverifications, cases, verificationIndex } from "@/lib/cases/server/tables";
import type { CaseSummary, Reverification } from "@/lib/cases/types";
import { queryRows, type Database } from "@/lib/db/client";
import { verificationEvents } from "@/lib/webhooks/server/tables";

import { NOT_FINISHED as NOT_FINISHED_STATUSES } from "./priority-sql";

/*
 * The same person across verifications, by the CPF's keyed hash in the search index (verification_index,
 * ./search.ts: learned from creations here, events, unmasked views and unmasked list pages). Only the hash is
 * compared; no CPF is read or kept here. Also a case's re-verifications (case_reverifications) with the
 * latest status the dashboard knows of each, without asking the service.
 */

/** What the database knows of another verification of the same person: its case, when it has one. */
export interface SamePersonRow {
  publicId: string;
  caseStatus: "open" | "closed" | null;
  upstreamStatus: string | null;
  createdAt: Date | null;
  recommendation: "approve" | "reprove" | "escalate" | null;
  outcomeState: string | null;
}

/** This verification's CPF hash in the index, or null when the index does not know its person. */
export async function indexedCpfHash(db: Database, publicId: string): Promise<string | null> {
  const [row] = await db
    .select({ cpfHash: verificationIndex.cpfHash })
    .from(verificationIndex)
    .where(eq(verificationIndex.publicId, publicId));
  return row?.cpfHash ?? null;
}

/** The other verifications the index holds under this hash (most recently seen first), each with its case when there is one. */
export async function samePersonRows(db: Database, publicId: string, hash: string, limit = 20): Promise<SamePersonRow[]> {
  const rows = await db
    .select({
      publicId: verificationIndex.publicId,
      caseStatus: cases.status,
      upstreamStatus: cases.upstreamStatus,
      createdAt: cases.upstreamCreatedAt,
      recommendation: cases.recommendation,
      outcomeState: cases.outcomeState,
    })
    .from(verificationIndex)
    .leftJoin(cases, eq(cases.publicId, verificationIndex.publicId))
    .where(and(eq(verificationIndex.cpfHash, hash), ne(verificationIndex.publicId, publicId)))
    .orderBy(desc(verificationIndex.updatedAt), asc(verificationIndex.publicId))
    .limit(limit);
  return rows.map((row) => ({
    publicId: row.publicId,
    caseStatus: row.caseStatus ?? null,
    upstreamStatus: row.upstreamStatus ?? null,
    createdAt: row.createdAt ?? null,
    recommendation: row.recommendation ?? null,
    outcomeState: row.outcomeState ?? null,
  }));
}

/**
 * Flags the queue's rows whose person has another open case (`otherOpenCase`): one query for the page, joining
 * the page's cases to the index and, by the CPF hash, to the other open cases.
 */
export async function withOtherOpenCases<T extends CaseSummary>(db: Database, items: T[]): Promise<T[]> {
  if (items.length === 0) return items;
  const rows = await queryRows<{ publicId: string }>(
    db,
    sql`
    select distinct mine.public_id as "publicId"
    from ${verificationIndex} mine
    join ${verificationIndex} other on other.cpf_hash = mine.cpf_hash and other.public_id <> mine.public_id
    join ${cases} c on c.public_id = other.public_id and c.status = 'open'
    where mine.cpf_hash is not null and mine.public_id in (${sql.join(
      items.map((item) => sql`${item.publicId}`),
      sql`, `,
    )})`,
  );
  const flagged = new Set(rows.map((row) => row.publicId));
  return items.map((item) => ({ ...item, otherOpenCase: flagged.has(item.publicId) }));
}

const NOT_FINISHED = new Set<string>(NOT_FINISHED_STATUSES);

/**
 * A case's re-verifications, oldest first, each with the latest status the dashboard knows (its own case, else
 * its latest event; null when neither has arrived yet), and whether the case still waits for the latest one.
 */
export async function reverificationsOf(
  db: Database,
  caseId: string,
): Promise<{ reverifications: Reverification[]; waitingFor: string | null }> {
  const latestEvent = db
    .select({ status: verificationEvents.status })
    .from(verificationEvents)
    .where(and(eq(verificationEvents.publicId, caseReverifications.publicId), sql`${verificationEvents.status} is not null`))
    .orderBy(desc(verificationEvents.occurredAt), desc(verificationEvents.id))
    .limit(1);
  const rows = await db
    .select({
      publicId: caseReverifications.publicId,
      refId: caseReverifications.refId,
      requestedAt: caseReverifications.requestedAt,
      requestedById: staffUsers.id,
      requestedByEmail: staffUsers.email,
      requestedByName: staffUsers.name,
      status: sql<string | null>`coalesce(${cases.upstreamStatus}, (${latestEvent}))`,
    })
    .from(caseReverifications)
    .leftJoin(cases, eq(cases.publicId, caseReverifications.publicId))
    .leftJoin(staffUsers, eq(staffUsers.id, caseReverifications.requestedBy))
    .where(eq(caseReverifications.caseId, caseId))
    .orderBy(asc(caseReverifications.requestedAt), asc(caseReverifications.id));
  const reverifications = rows.map((row): Reverification => ({
    publicId: row.publicId,
    refId: row.refId,
    requestedAt: row.requestedAt.toISOString(),
    requestedBy: row.requestedById ? { id: row.requestedById, email: row.requestedByEmail ?? "", name: row.requestedByName ?? "" } : null,
    status: row.status ?? null,
  }));
  const last = reverifications.at(-1);
  return { reverifications, waitingFor: last && (last.status === null || NOT_FINISHED.has(last.status)) ? last.publicId : null };
}

/** How many re-verifications a case has had: the next one's number is this plus one. */
export async function reverificationCount(db: Database, caseId: string): Promise<number> {
  const [row] = await db
    .select({ count: sql<number>`count(*)::int` })
    .from(caseReverifications)
    .where(inArray(caseReverifications.caseId, [caseId]));
  return Number(row?.count ?? 0);
}

/**
 * Links a re-verification to its case and writes the timeline's `reverification_requested` entry, in one
 * transaction. The public id is unique: a repeat (two requests racing for the same round, which the service
 * answers with the same verification) links once and writes one entry. Answers whether this call linked it.
 */
export async function linkReverification(
  db: Database,
  link: { caseId: string; publicId: string; refId: string; actorId: string; at?: Date },
): Promise<boolean> {
  const at = link.at ?? new Date();
  return db.transaction(async (tx) => {
    const inserted = await tx
      .insert(caseReverifications)
      .values({ caseId: link.caseId, publicId: link.publicId, refId: link.refId, requestedBy: link.actorId, requestedAt: at })
      .onConflictDoNothing({ target: caseReverifications.publicId })
      .returning({ id: caseReverifications.id });
    if (inserted.length === 0) return false;
    await tx.insert(caseEntries).values({
      caseId: link.caseId,
      at,
      actorId: link.actorId,
      kind: "reverification_requested",
      details: { publicId: link.publicId, refId: link.refId },
    });
    return true;
  });
}
