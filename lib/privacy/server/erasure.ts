import "server-only";

import { and, arrayOverlaps, desc, eq, inArray, isNotNull, ne, sql } from "drizzle-orm";
import { alias } from "drizzle-orm/pg-core";

import { failureOf, recordEvent, type AuditDetails } from "@/lib/audit-trail/server";
import type { RequestContext } from "@/lib/audit-trail/server/context";
import { cpfHashes, maskCpf } from "@/lib/audit-trail/server/record";
import { auditEvents } from "@/lib/audit-trail/server/tables";
import { accessGivenByRequester, ConfirmerNotIndependentError } from "@/lib/auth/server/four-eyes";
import { staffUsers } from "@/lib/auth/server/tables";
import { publishCaseChange } from "@/lib/cases/server/live";
import { forgetInSearchIndex } from "@/lib/cases/server/search";
import { caseEntries, cases, verificationIndex } from "@/lib/cases/server/tables";
import { config } from "@/lib/config";
import type { Database } from "@/lib/db/client";
import { isSealedText, openText, sealedTextKeyId, sealText } from "@/lib/keys/ring";
import { log } from "@/lib/log";
import type { ErasedKind, ErasureDto, ErasureListResponse, ErasureMember, ErasureResult, KeptKind } from "@/lib/privacy/erasure";
import type { ErasureRequestInput } from "@/lib/privacy/validation";
import { AppError } from "@/lib/shared/errors";
import { documentCrops } from "@/lib/verifications/server/tables";
import { webhookDeliveries } from "@/lib/webhooks/server/tables";

import { privacyErasures, type PrivacyErasureRow } from "./tables";
import { shortenDeliveryBody } from "./webhook-body";

/*
 * Erasure on request (LGPD art. 18 IV and VI), under four eyes: one member holding `privacy.erase` asks
 * (requestErasure), another confirms (confirmErasure) and only then is anything erased; either the requester or
 * another member may cancel a pending request. The request knows the person by the keyed hashes of their CPF
 * (cpfHashes: one per audit key) and its masked form, never by the CPF.
 *
 * The confirmation runs in one transaction with the request's row locked (FOR UPDATE), so of two members
 * confirming at once one erases and the other gets 409. What it erases, for the verifications the index holds
 * under those hashes: the free text of their cases' history (notes, outcome comments, send-back reasons) becomes a
 * tombstone (text null, who and when), the cases' outcome comment and person name are cleared and the case marked
 * `erased_at` (so no later sync writes the name again), the
 * portrait crops and the index entries are removed (and the person's hashes remembered, so no later read indexes
 * them again: lib/cases/server/search.ts), and the webhook bodies about them are cut to what processing reads. What it keeps, and why, is written into the request's `result` (KEPT below): the audit trail, the cases'
 * decisions, the verifications' status events, and what the provider holds.
 *
 * Looked at and left alone, holding nothing about the person beyond ids: notifications and their outbox (a kind,
 * a case's public id, a link), saved views (list filters: status, flow, journey, dates), live events (ids).
 */

export interface ErasureContext extends RequestContext {
  actor: { id: string; email: string };
}

/** The legal reasons for what an erasure keeps (English, as stored; the panel words them in the member's language). */
const KEPT: Record<KeptKind, string> = {
  audit_trail:
    "The audit trail's events about the person are kept: records of access and of lawful processing the company must keep (LGPD art. 16 I and art. 37; Marco Civil da Internet art. 15), and the trail stays verifiable. They hold the masked CPF and its keyed hash, never the CPF, nor any note's text.",
  case_decisions:
    "The cases' decisions and statuses (recommendation, reasons, who decided and when, the provider's final status) are kept as the record of the company's legal and regulatory obligations (LGPD art. 16 I and art. 7 II; anti-money-laundering record keeping, Lei 9.613/98 art. 10). Their free text is erased.",
  verification_events:
    "The verifications' status events (event, status, scores, ref_id, time) are kept with the cases they document (the same obligations); they hold no free text.",
  provider_data:
    "The verification data itself (documents, images, scores, personal data) is held by the verification service, not by the dashboard: the company must ask the provider to erase it.",
};

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

/** The erasure itself, inside the confirming transaction. */
async function erase(
  tx: Database,
  { id, cpfHashes: hashes }: Pick<PrivacyErasureRow, "id" | "cpfHashes">,
  confirmer: string,
  now: Date,
): Promise<{ result: ErasureResult; casePublicIds: string[] }> {
  const indexed = await tx
    .select({ publicId: verificationIndex.publicId })
    .from(verificationIndex)
    .where(inArray(verificationIndex.cpfHash, hashes));
  const publicIds = [...new Set(indexed.map((entry) => entry.publicId))];
  const erased: Record<ErasedKind, number> = {
    case_texts: 0,
    outcome_comments: 0,
    person_names: 0,
    document_crops: 0,
    index_entries: 0,
    webhook_bodies: 0,
  };
  let caseRows: Array<{ id: string; publicId: string }> = [];
  if (publicIds.length > 0) {
    caseRows = await tx.select({ id: cases.id, publicId: cases.publicId }).from(cases).where(inArray(cases.publicId, publicIds));
    const caseIds = caseRows.map((row) => row.id);
    if (caseIds.length > 0) {
      // The entries stay (who did what, when, of which kind): the timeline shows a tombstone for the text.
      erased.case_texts = (
        await tx
          .update(caseEntries)
          .set({ text: null, redactedAt: now, redactedBy: confirmer })
          .where(and(inArray(caseEntries.caseId, caseIds), isNotNull(caseEntries.text)))
          .returning({ id: caseEntries.id })
      ).length;
      const [counted] = await tx
        .select({
          comments: sql<number>`(count(*) filter (where ${cases.outcomeComment} is not null))::int`,
          names: sql<number>`(count(*) filter (where ${cases.personName} is not null))::int`,
        })
        .from(cases)
        .where(inArray(cases.id, caseIds));
      erased.outcome_comments = counted!.comments;
      erased.person_names = counted!.names;
      // `erased_at` also keeps the sync from writing the name again (lib/cases/server/store.ts).
      await tx.update(cases).set({ outcomeComment: null, personName: null, erasedAt: now }).where(inArray(cases.id, caseIds));
    }
    erased.document_crops = (
      await tx.delete(documentCrops).where(inArray(documentCrops.publicId, publicIds)).returning({ id: documentCrops.publicId })
    ).length;
    erased.webhook_bodies = await shortenBodies(tx, publicIds);
  }
  erased.index_entries = (
    await tx.delete(verificationIndex).where(inArray(verificationIndex.cpfHash, hashes)).returning({ id: verificationIndex.publicId })
  ).length;
  // Remembered (hashes only), so no later read, sync or re-keying indexes the person again.
  await forgetInSearchIndex(tx, hashes, id, now);

  const [audit] = await tx
    .select({ count: sql<number>`count(*)::int` })
    .from(auditEvents)
    .where(inArray(auditEvents.targetHash, hashes));
  const casesKept = caseRows.length;
  const result: ErasureResult = {
    verifications: publicIds.length,
    cases: casesKept,
    erased,
    kept: [
      { kind: "audit_trail", count: audit?.count ?? 0, reason: KEPT.audit_trail },
      { kind: "case_decisions", count: casesKept, reason: KEPT.case_decisions },
      { kind: "verification_events", count: null, reason: KEPT.verification_events },
      { kind: "provider_data", count: null, reason: KEPT.provider_data },
    ],
  };
  return { result, casePublicIds: caseRows.map((row) => row.publicId) };
}

/** Deliveries about these verifications, whatever their state, cut as the retention pruner cuts them. */
async function shortenBodies(tx: Database, publicIds: string[]): Promise<number> {
  const rows = await tx
    .select({ id: webhookDeliveries.id, body: webhookDeliveries.body })
    .from(webhookDeliveries)
    .where(inArray(webhookDeliveries.publicId, publicIds));
  let shortened = 0;
  for (const row of rows) {
    const short = shortenDeliveryBody(row.body);
    if (short === row.body) continue;
    await tx.update(webhookDeliveries).set({ body: short }).where(eq(webhookDeliveries.id, row.id));
    shortened += 1;
  }
  return shortened;
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
