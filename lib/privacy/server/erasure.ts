import "server-only";

import { and, arrayOverlaps, desc, eq, ne } from "drizzle-orm";
import { alias } from "drizzle-orm/pg-core";

import { failureOf, recordEvent, type AuditDetails } from "@/lib/audit-trail/server";
import type { RequestContext } from "@/lib/audit-trail/server/context";
import { cpfHashes, maskCpf } from "@/lib/audit-trail/server/record";
import { accessGivenByRequester, ConfirmerNotIndependentError } from "@/lib/auth/server/four-eyes";
import { staffUsers } from "@/lib/auth/server/tables";
import { publishCaseChange } from "@/lib/cases/server/live";
import { config } from "@/lib/config";
import type { Database } from "@/lib/db/client";
import { isSealedText, openText, sealedTextKeyId, sealText } from "@/lib/keys/ring";
import { log } from "@/lib/log";
import type { ErasureDto, ErasureListResponse, ErasureMember, ErasureResult } from "@/lib/privacy/erasure";
import type { ErasureRequestInput } from "@/lib/privacy/validation";
import { AppError } from "@/lib/shared/errors";

import { erase } from "./erase";
import { privacyErasures, type PrivacyErasureRow } from "./tables";

/*
 * Erasure on request (LGPD art. 18 IV and VI), under four eyes: one member holding `privacy.erase` asks
 * (requestErasure), another confirms (confirmErasure) and only then is anything erased; either the requester or
 * another member may cancel a pending request. The request knows the person by the keyed hashes of their CPF
 * (cpfHashes: one per audit key) and its masked form, never by the CPF.
 *
 * The confirmation runs in one transaction with the request's row locked (FOR UPDATE), so of two members
 * confirming at once one erases and the other gets 409. What it erases, and what it keeps with the reason for each
 * (written into the request's `result`), is ./erase.ts's.
 *
 * Looked at and left alone, holding nothing about the person beyond ids: notifications and their outbox (a kind,
 * a case's public id, a link), saved views (list filters: status, flow, journey, dates), live events (ids).
 */

export interface ErasureContext extends RequestContext {
  actor: { id: string; email: string };
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const RECENT_LIMIT = 20;

class ErasureNotFoundError extends AppError {
  constructor() {
    super("not_found", "No erasure request has this id.");
  }
}

/** What every event of an erasure names: who acted, from where, the request and its person (first CPF hash). */
function eventAbout(context: ErasureContext, erasure: { id: string; cpfHashes: string[] } | null) {
  return {
    actor: context.actor,
    ip: context.ip,
    pageView: context.pageView,
    target: erasure ? ({ type: "privacy_erasure", id: erasure.id } as const) : undefined,
    subjectCpfHash: erasure?.cpfHashes[0],
  };
}

/** A refused confirmation or cancellation on the trail (best effort, outside the rolled-back work), then thrown. */
async function refused(
  db: Database,
  context: ErasureContext,
  action: string,
  row: PrivacyErasureRow | null,
  error: AppError,
): Promise<never> {
  const { outcome, reason } = failureOf(error);
  await recordEvent(
    {
      ...eventAbout(context, row),
      action,
      outcome,
      details: { reason },
    },
    db,
  ).catch((auditError: unknown) => log.error("audit_failed", { action, error: auditError }));
  throw error;
}

/** Stores a pending request for a second member to confirm; erases nothing yet. */
export async function requestErasure(db: Database, context: ErasureContext, input: ErasureRequestInput): Promise<ErasureDto> {
  const hashes = cpfHashes(input.cpf);
  const id = await db.transaction(async (tx) => {
    const [waiting] = await tx
      .select({ id: privacyErasures.id })
      .from(privacyErasures)
      .where(and(eq(privacyErasures.state, "pending"), arrayOverlaps(privacyErasures.cpfHashes, hashes)))
      .limit(1);
    if (waiting) throw new AppError("conflict", "An erasure request for this person is already waiting for confirmation.");
    const [row] = await tx
      .insert(privacyErasures)
      .values({ cpfHashes: hashes, documentMasked: maskCpf(input.cpf), reason: sealReason(input.reason), requestedBy: context.actor.id })
      .returning({ id: privacyErasures.id });
    // The reason is free text that may name the person: the trail keeps its length only.
    await recordEvent(
      {
        ...eventAbout(context, { id: row!.id, cpfHashes: hashes }),
        action: "privacy.erasure.request",
        outcome: "success",
        details: { reasonLength: input.reason.length },
      },
      tx,
    );
    return row!.id;
  });
  return (await findErasure(db, id, context.actor.id))!;
}

/** The pending request, locked for this transaction; refusals say why. */
async function lockPending(
  tx: Database,
  context: ErasureContext,
  id: string,
  { fourEyes }: { fourEyes: boolean },
): Promise<{ row: PrivacyErasureRow } | { row: PrivacyErasureRow | null; error: AppError }> {
  if (!UUID.test(id)) return { row: null, error: new ErasureNotFoundError() };
  const [row] = await tx.select().from(privacyErasures).where(eq(privacyErasures.id, id)).for("update");
  if (!row) return { row: null, error: new ErasureNotFoundError() };
  if (row.state !== "pending") return { row, error: new AppError("conflict", `This erasure request is already ${row.state}.`) };
  if (fourEyes && row.requestedBy === context.actor.id) {
    return {
      row,
      error: new AppError("conflict", "You asked for this erasure: another member holding the erasure permission must confirm it."),
    };
  }
  // Nor an account the requester created, re-enabled or gave its role around the request (lib/auth/server/four-eyes.ts).
  if (fourEyes && (await madeByRequester(tx, context, row))) return { row, error: new ConfirmerNotIndependentError() };
  return { row };
}

async function madeByRequester(tx: Database, context: ErasureContext, row: PrivacyErasureRow): Promise<boolean> {
  const [answer] = await tx
    .select({ given: accessGivenByRequester(context.actor.id, privacyErasures.requestedBy, privacyErasures.requestedAt).mapWith(Boolean) })
    .from(privacyErasures)
    .where(eq(privacyErasures.id, row.id));
  return answer?.given === true;
}

/**
 * Decides the pending request in one transaction (`decide`, given the locked row), or records why it may not be
 * decided and throws that refusal. Answers the request as it then stands.
 */
async function decidePending(
  db: Database,
  context: ErasureContext,
  id: string,
  action: string,
  options: { fourEyes: boolean },
  decide: (tx: Database, row: PrivacyErasureRow) => Promise<void>,
): Promise<ErasureDto> {
  const outcome = await db.transaction(async (tx) => {
    const locked = await lockPending(tx, context, id, options);
    if ("error" in locked) return locked;
    await decide(tx, locked.row);
    return locked;
  });
  if ("error" in outcome) return refused(db, context, action, outcome.row, outcome.error);
  return (await findErasure(db, outcome.row.id, context.actor.id))!;
}

/** Carries out a pending request: the second member's confirmation (four eyes). Answers the request with its result. */
export async function confirmErasure(db: Database, context: ErasureContext, id: string): Promise<ErasureDto> {
  const action = "privacy.erasure.confirm";
  return decidePending(db, context, id, action, { fourEyes: true }, async (tx, row) => {
    const now = new Date();
    const { result, casePublicIds } = await erase(tx, row, context.actor.id, now);
    const [decided] = await tx
      .update(privacyErasures)
      .set({ state: "confirmed", decidedBy: context.actor.id, decidedAt: now, result: result as unknown as Record<string, unknown> })
      .where(and(eq(privacyErasures.id, row.id), eq(privacyErasures.state, "pending"), ne(privacyErasures.requestedBy, context.actor.id)))
      .returning({ id: privacyErasures.id });
    if (!decided) throw new Error("the locked erasure request could not be decided");
    await recordEvent(
      {
        ...eventAbout(context, row),
        action,
        outcome: "success",
        details: countsOf(result),
      },
      tx,
    );
    // Open case pages reload: their notes now show the tombstone.
    await publishCaseChange(tx, "case.outcome", casePublicIds);
  });
}

/** Withdraws a pending request: its requester, or another member holding the permission. Nothing is erased. */
export async function cancelErasure(db: Database, context: ErasureContext, id: string): Promise<ErasureDto> {
  const action = "privacy.erasure.cancel";
  return decidePending(db, context, id, action, { fourEyes: false }, async (tx, row) => {
    const own = row.requestedBy === context.actor.id;
    // The database holds the decider apart from the requester (privacy_erasures_four_eyes): a request its own
    // requester withdraws has no decider; the audit event names who cancelled it.
    await tx
      .update(privacyErasures)
      .set({ state: "cancelled", decidedBy: own ? null : context.actor.id, decidedAt: new Date() })
      .where(eq(privacyErasures.id, row.id));
    await recordEvent(
      {
        ...eventAbout(context, row),
        action,
        outcome: "success",
        details: { byRequester: own },
      },
      tx,
    );
  });
}

function countsOf(result: ErasureResult): AuditDetails {
  const kept = Object.fromEntries(result.kept.filter((entry) => entry.count !== null).map((entry) => [`kept_${entry.kind}`, entry.count]));
  return { verifications: result.verifications, cases: result.cases, ...result.erased, ...kept };
}

/*
 * The request's reason is free text that may name the person: sealed at rest under the data key ring like case
 * notes (lib/keys/ring.ts). A request lives days, not years, so no re-seal job follows rotations here: a reason
 * under a key already retired reads as a placeholder, the request itself still works.
 */
const REASON_PURPOSE = "privacy-erasure-reason";

function sealReason(reason: string): string {
  return sealText(config().secrets.dataEncryption, REASON_PURPOSE, reason);
}

function openReason(stored: string): string {
  if (!isSealedText(stored)) return stored;
  return openText(config().secrets.dataEncryption, REASON_PURPOSE, stored) ?? `[sealed under retired key ${sealedTextKeyId(stored)}]`;
}

const requester = alias(staffUsers, "requester");
const decider = alias(staffUsers, "decider");

function selectErasures(db: Database) {
  return db
    .select({
      row: privacyErasures,
      requester: { id: requester.id, name: requester.name, email: requester.email },
      decider: { id: decider.id, name: decider.name, email: decider.email },
    })
    .from(privacyErasures)
    .innerJoin(requester, eq(requester.id, privacyErasures.requestedBy))
    .leftJoin(decider, eq(decider.id, privacyErasures.decidedBy));
}

type ErasureSelection = Awaited<ReturnType<ReturnType<typeof selectErasures>["where"]>>[number];

function toDto({ row, requester: asked, decider: decided }: ErasureSelection, viewerId: string): ErasureDto {
  const requestedBy: ErasureMember = asked;
  // A request withdrawn by its own requester has no decider (the database's four-eyes check): they decided.
  const decidedBy: ErasureMember | null = decided ?? (row.state === "cancelled" ? requestedBy : null);
  return {
    id: row.id,
    documentMasked: row.documentMasked,
    reason: openReason(row.reason),
    state: row.state,
    requestedBy,
    requestedAt: row.requestedAt.toISOString(),
    ownRequest: row.requestedBy === viewerId,
    decidedBy,
    decidedAt: row.decidedAt?.toISOString() ?? null,
    result: (row.result as ErasureResult | null) ?? null,
  };
}

/** One request as `viewerId` sees it (whether it is their own). */
export async function findErasure(db: Database, id: string, viewerId: string): Promise<ErasureDto | null> {
  if (!UUID.test(id)) return null;
  const [found] = await selectErasures(db).where(eq(privacyErasures.id, id));
  return found ? toDto(found, viewerId) : null;
}

/** Every pending request (oldest first: the longest waiting on top), then the latest decided ones. */
export async function listErasures(db: Database, viewerId: string): Promise<ErasureListResponse> {
  const [pending, recent] = await Promise.all([
    selectErasures(db).where(eq(privacyErasures.state, "pending")).orderBy(privacyErasures.requestedAt),
    selectErasures(db)
      .where(ne(privacyErasures.state, "pending"))
      .orderBy(desc(privacyErasures.decidedAt), desc(privacyErasures.requestedAt))
      .limit(RECENT_LIMIT),
  ]);
  const dto = (selection: ErasureSelection) => toDto(selection, viewerId);
  return { pending: pending.map(dto), recent: recent.map(dto) };
}
