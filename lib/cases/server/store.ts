import "server-only";

import { and, eq, inArray, sql } from "drizzle-orm";

import { routeCase } from "@/lib/cases/routing-rules";
import { dueAt, flagsOf, needsPerson, type CaseSettings } from "@/lib/cases/rules";
import { caseEntries, cases, DEFAULT_QUEUE_ID } from "@/lib/cases/server/tables";
import { config } from "@/lib/config";
import type { Database } from "@/lib/db/client";
import { isValidCpf, maskCpf } from "@/lib/shared/cpf";
import { currentConnectionId } from "@/lib/upstream/account";
import { canExpire, isDecided, isExpired, type Verification } from "@/lib/upstream/model/verification";

import { publishCaseChange } from "./live";
import { loadRules } from "./routing";
import { disagreesSql } from "./rule-conditions";
import { sealCaseText } from "./sealed-text";

/*
 * Cases in the database: opening and refreshing them from what the upstream says (events and the sync
 * both land in `applyObservations`) and closing them on a final status, or when the person's flow expired without an
 * outcome (the case has nothing left to review: the reason is kept, `closed_reason`); the queue and one case are
 * read in ./queue.ts and ./detail.ts.
 * Opening is an `INSERT … ON CONFLICT` on the verification's public id, so two instances (or an event and
 * the sync) seeing the same verification at once make one case; transitions write one history entry each,
 * so applying the same observation twice changes nothing.
 */

export function caseSettings(): CaseSettings {
  const { redFlags, riskThreshold, slaHours } = config().cases;
  return { redFlags, riskThreshold, slaHours };
}

/** What a case keeps of a verification: no raw CPF; the person's name only sealed (`openOrRefresh`). */
export interface Observation {
  publicId: string;
  status: string;
  flags: string[];
  documentMasked: string | null;
  /** The name as the verification gave it (masked by the service for a key without the permission); sealed when stored. */
  personName?: string | null;
  createdAt: Date | null;
  // Known when the verification was read, for routing a new case only (lib/cases/routing-rules.ts); not stored.
  flow?: string | null;
  journey?: string | null;
  riskScore?: number | null;
  /**
   * The person's flow ended without them finishing it (`isExpired`, or the service's `verification.expired`): the
   * case leaves the queue, closed with the reason `expired`.
   */
  expired?: boolean;
  /** The provider's review sub-state as read (open, assigned, decided), kept to show beside the case's own stage. */
  reviewState?: string | null;
}

export function maskedDocument(verification: Pick<Verification, "document" | "documentMasked">): string | null {
  if (!verification.document) return null;
  if (verification.documentMasked) return verification.document;
  // Unmasked: keep only the masked form; anything that is not a CPF is not kept at all.
  return isValidCpf(verification.document) ? maskCpf(verification.document) : null;
}

/** A name longer than this is cut: a queue row shows one line of it, and the column stays bounded. */
const PERSON_NAME_MAX = 200;

/** The verification's name, its spaces collapsed and its length bounded; null when it has none. */
function personNameOf(verification: Pick<Verification, "person">): string | null {
  const name = verification.person.name?.replace(/\s+/g, " ").trim() ?? "";
  return name === "" ? null : [...name].slice(0, PERSON_NAME_MAX).join("");
}

export function observe(verification: Verification, settings: CaseSettings, now = new Date()): Observation {
  const created = verification.createdAt ? new Date(verification.createdAt) : null;
  return {
    publicId: verification.publicId,
    status: verification.status,
    flags: flagsOf(verification, settings.riskThreshold),
    documentMasked: maskedDocument(verification),
    personName: personNameOf(verification),
    createdAt: created && !Number.isNaN(created.getTime()) ? created : null,
    flow: verification.flow ?? null,
    journey: verification.journey ?? null,
    riskScore: verification.riskScore,
    expired: isExpired(verification, now),
    reviewState: verification.status === "review" ? (verification.reviewState ?? null) : null,
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
    const live = observations.filter((item) => !item.expired);
    const opened = await openOrRefresh(
      tx as unknown as Database,
      live.filter((item) => needsPerson(item.status, item.flags, settings)),
      settings,
      now,
    );
    const closed: string[] = [];
    for (const item of observations.filter((entry) => isDecided(entry.status) || entry.expired)) {
      if (await closeCase(tx as unknown as Database, item, now)) closed.push(item.publicId);
    }
    // Neither final nor needing a person (e.g. back to `started`): an open case only follows the status.
    const others = live.filter((item) => !isDecided(item.status) && !needsPerson(item.status, item.flags, settings));
    for (const item of others) {
      await tx
        .update(cases)
        .set({ upstreamStatus: item.status, upstreamReviewState: item.reviewState ?? null, lastSeenAt: now, updatedAt: now })
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
 * `expired`: the event was the service's `verification.expired`; unless its status says the person's part is done
 * (review, or decided), the case closes with the reason `expired` (a status-less expiry event closes it too).
 */
export async function applyStatusOnly(
  db: Database,
  publicId: string,
  status: string | null,
  settings: CaseSettings,
  now = new Date(),
  { expired = false }: { expired?: boolean } = {},
): Promise<void> {
  if (isDecided(status) || (expired && canExpire(status))) {
    await db.transaction(async (tx) => {
      await closeCase(
        tx as unknown as Database,
        { publicId, status: status ?? "", flags: [], documentMasked: null, createdAt: null, expired: !isDecided(status) },
        now,
      );
    });
    return;
  }
  if (status === null) return;
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
      .values({
        publicId,
        connectionId: currentConnectionId(),
        upstreamStatus: status,
        openedAt: now,
        dueAt: dueAt(now, settings.slaHours),
        updatedAt: now,
        queueId,
      })
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
      closedReason: null,
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
  // The connection whose key read these verifications (the sync's, or the one an event was routed to); a case keeps
  // the connection it opened under.
  const connectionId = currentConnectionId();
  // One statement per batch; `xmax = 0` tells a fresh insert from an update of an existing row.
  const rows = await db
    .insert(cases)
    .values(
      items.map((item) => ({
        publicId: item.publicId,
        connectionId,
        upstreamStatus: item.status,
        upstreamReviewState: item.reviewState ?? null,
        flags: item.flags,
        documentMasked: item.documentMasked,
        // Sealed here, in memory: the name is never written, logged or sent anywhere in clear.
        personName: sealCaseText("personName", item.personName ?? null),
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
        upstreamReviewState: sql`excluded.upstream_review_state`,
        flags: sql`excluded.flags`,
        documentMasked: sql`coalesce(excluded.document_masked, ${cases.documentMasked})`,
        // A verification read without a name keeps the one known; a case erased at the titular's request
        // (lib/privacy/server/erasure.ts) never learns it again.
        personName: sql`case when ${cases.erasedAt} is not null then null else coalesce(excluded.person_name, ${cases.personName}) end`,
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

async function closeCase(db: Database, item: Observation, now: Date): Promise<boolean> {
  // Expired: no decision came, so there is no final status to hold the recommendation against.
  const reason = item.expired && !isDecided(item.status) ? "expired" : "decided";
  const [row] = await db
    .update(cases)
    .set({
      status: "closed",
      // A status-less expiry event leaves the status as last known.
      ...(item.status ? { upstreamStatus: item.status } : {}),
      finalStatus: reason === "decided" ? item.status : null,
      closedReason: reason,
      closedAt: now,
      // The effective recommendation (confirmed, or recorded without needing confirmation) against the final status.
      disagreement: reason === "decided" ? disagreesSql(item.status) : false,
      updatedAt: now,
    })
    .where(and(eq(cases.publicId, item.publicId), eq(cases.status, "open")))
    .returning({ id: cases.id, disagreement: cases.disagreement });
  if (!row) return false;
  await db.insert(caseEntries).values({
    caseId: row.id,
    at: now,
    kind: "closed",
    details: { status: item.status || null, disagreement: row.disagreement, ...(reason === "expired" ? { reason } : {}) },
  });
  await publishCaseChange(db, "case.closed", item.publicId);
  return true;
}
