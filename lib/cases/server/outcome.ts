import "server-only";

import { and, eq, isNull, ne, not, or, sql } from "drizzle-orm";

import { accessGivenByRequester, ConfirmerNotIndependentError } from "@/lib/auth/server/four-eyes";
import { caseEntries, cases } from "@/lib/cases/server/tables";
import type { ConfirmationInput, OutcomeInput } from "@/lib/cases/validation";
import type { Database } from "@/lib/db/client";
import { markCasesHandled } from "@/lib/notifications/server/handled";
import { membersHolding, notify } from "@/lib/notifications/server/notify";
import { kickOutbox } from "@/lib/notifications/server/outbox";
import { AppError } from "@/lib/shared/errors";

import { inTransaction, refused, succeeded, type CaseContext } from "./context";
import { findCaseRow } from "./detail";
import { publishCaseChange } from "./live";
import { queueLeads } from "./queue-leads";
import { needsConfirmationSql } from "./rule-conditions";
import { caseHere, connectionHere } from "./scope";
import { sealCaseText } from "./sealed-text";

// An outcome and its confirmation by a second person (four eyes), each one conditional UPDATE (./context.ts).

/** Tells those who can confirm (the author excepted) that an outcome waits for them, once per outcome. */
export async function notifyConfirmationWaiting(
  db: Database,
  outcome: { entryId: number; casePublicId: string; authorId: string; origin?: string },
): Promise<{ created: number }> {
  const confirmers = (await membersHolding(db, "cases.confirm")).filter((member) => member.id !== outcome.authorId);
  return notify(db, {
    userIds: confirmers.map((member) => member.id),
    kind: "confirmation_waiting",
    casePublicId: outcome.casePublicId,
    dedupeKey: `outcome:${outcome.entryId}`,
    actorId: outcome.authorId,
    origin: outcome.origin,
  });
}

/**
 * Tells the member who recommended that a second member confirmed it or not, naming who (four eyes), once per
 * confirmation; never the confirmer themself, nor a member who no longer reads cases.
 */
async function notifyOutcomeSettled(
  db: Database,
  settled: { entryId: number; casePublicId: string; authorId: string | null; confirmerId: string; agree: boolean; origin?: string },
): Promise<{ created: number }> {
  if (!settled.authorId || settled.authorId === settled.confirmerId) return { created: 0 };
  const author = await membersHolding(db, "cases.read", [settled.authorId]);
  return notify(db, {
    userIds: author.map((member) => member.id),
    kind: settled.agree ? "outcome_confirmed" : "outcome_rejected",
    casePublicId: settled.casePublicId,
    dedupeKey: `confirmation:${settled.entryId}`,
    actorId: settled.confirmerId,
    origin: settled.origin,
  });
}

/**
 * Tells those who take up the case's queue that a member escalated it, naming who, once per escalation: the queue's
 * leads, or with none the members who assign cases (as the overdue digest chooses), never the member who escalated.
 */
async function notifyEscalation(
  db: Database,
  escalation: { entryId: number; casePublicId: string; queueId: string; actorId: string; origin?: string },
): Promise<{ created: number }> {
  const leadsOf = await queueLeads(db, [escalation.queueId]);
  return notify(db, {
    userIds: leadsOf(escalation.queueId).filter((id) => id !== escalation.actorId),
    kind: "case_escalated",
    casePublicId: escalation.casePublicId,
    dedupeKey: `escalation:${escalation.entryId}`,
    actorId: escalation.actorId,
    origin: escalation.origin,
  });
}

/**
 * The assignee records a recommendation with reasons; four-eyes cases then wait for a second person. An
 * escalation leaves the assignee's hands: the case goes to the escalation queue unassigned, for someone other
 * than its author to take (assignCase) and decide.
 */
export async function recordOutcome(
  db: Database,
  context: CaseContext,
  publicId: string,
  input: OutcomeInput,
): Promise<{ outcomeState: string }> {
  const now = new Date();
  const { actor } = context;
  const escalating = input.recommendation === "escalate";
  const comment = input.comment.trim() || null;
  const result = await inTransaction(db, async (tx) => {
    const [row] = await tx
      .update(cases)
      .set({
        recommendation: input.recommendation,
        reasons: input.reasons,
        outcomeComment: sealCaseText("outcomeComment", comment),
        outcomeBy: actor.id,
        outcomeAt: now,
        // Four eyes on the row's own flags (FOUR_EYES, lib/cases/rules.ts).
        outcomeState: sql`case when ${needsConfirmationSql(input.recommendation)} then 'pending_confirmation' else 'recorded' end`,
        confirmedBy: null,
        confirmedAt: null,
        ...(escalating ? { assigneeId: null, assignedAt: null } : {}),
        updatedAt: now,
      })
      .where(
        and(
          caseHere(publicId),
          eq(cases.status, "open"),
          eq(cases.assigneeId, actor.id),
          // A confirmed outcome is settled; a pending, rejected or plain one may be replaced by the assignee.
          or(isNull(cases.outcomeState), ne(cases.outcomeState, "confirmed")),
        ),
      )
      .returning({ id: cases.id, outcomeState: cases.outcomeState, queueId: cases.queueId });
    if (!row) return null;
    const [entry] = await tx
      .insert(caseEntries)
      .values({
        caseId: row.id,
        at: now,
        actorId: actor.id,
        kind: "outcome",
        text: sealCaseText("entry", comment),
        details: { recommendation: input.recommendation, reasons: input.reasons, state: row.outcomeState },
      })
      .returning({ id: caseEntries.id });
    // Handled: what anyone was told of this case is read (before the "to confirm" below is made, unread).
    await markCasesHandled(tx, [publicId], { now });
    let told = 0;
    if (row.outcomeState === "pending_confirmation") {
      told += (
        await notifyConfirmationWaiting(tx, { entryId: entry!.id, casePublicId: publicId, authorId: actor.id, origin: context.origin })
      ).created;
    }
    if (escalating) {
      const [escalated] = await tx
        .insert(caseEntries)
        .values({ caseId: row.id, at: now, actorId: actor.id, kind: "escalated", details: {} })
        .returning({ id: caseEntries.id });
      told += (
        await notifyEscalation(tx, {
          entryId: escalated!.id,
          casePublicId: publicId,
          queueId: row.queueId,
          actorId: actor.id,
          origin: context.origin,
        })
      ).created;
    }
    await succeeded(tx, context, "case.outcome", publicId, {
      recommendation: input.recommendation,
      reasons: input.reasons.join(","),
      state: row.outcomeState,
    });
    await publishCaseChange(tx, "case.outcome", publicId);
    return { outcomeState: row.outcomeState!, told };
  });
  if (result) {
    if (result.told) void kickOutbox();
    return { outcomeState: result.outcomeState };
  }
  const row = await findCaseRow(db, publicId, connectionHere());
  if (!row) return refused(db, context, "case.outcome", publicId, new AppError("not_found", "No case exists for this verification."));
  if (row.status !== "open") return refused(db, context, "case.outcome", publicId, new AppError("conflict", "This case is closed."));
  if (row.assigneeId !== actor.id) {
    return refused(
      db,
      context,
      "case.outcome",
      publicId,
      new AppError("forbidden", "Only the case's assignee records an outcome. Assign the case to yourself first."),
    );
  }
  return refused(db, context, "case.outcome", publicId, new AppError("conflict", "This case's outcome is already confirmed."));
}

/** Whether the case's outcome author created, re-enabled or gave their role to this member around the outcome. */
async function madeByAuthor(db: Database, actorId: string, publicId: string): Promise<boolean> {
  const [answer] = await db
    .select({ given: accessGivenByRequester(actorId, cases.outcomeBy, cases.outcomeAt).mapWith(Boolean) })
    .from(cases)
    .where(caseHere(publicId));
  return answer?.given === true;
}

/**
 * Four eyes: someone other than the outcome's author agrees or disagrees with it, and not someone whose access the
 * author made after the outcome or shortly before it (ConfirmerNotIndependentError, 409: lib/auth/server/four-eyes.ts).
 */
export async function confirmOutcome(
  db: Database,
  context: CaseContext,
  publicId: string,
  input: ConfirmationInput,
): Promise<{ outcomeState: string }> {
  const now = new Date();
  const { actor } = context;
  const state = input.agree ? "confirmed" : "rejected";
  const done = await inTransaction(db, async (tx) => {
    const [row] = await tx
      .update(cases)
      .set({ outcomeState: state, confirmedBy: actor.id, confirmedAt: now, updatedAt: now })
      .where(
        and(
          caseHere(publicId),
          eq(cases.status, "open"),
          eq(cases.outcomeState, "pending_confirmation"),
          // Nobody confirms their own outcome, whatever their role, nor one whose author made their access.
          ne(cases.outcomeBy, actor.id),
          not(accessGivenByRequester(actor.id, cases.outcomeBy, cases.outcomeAt)),
        ),
      )
      .returning({ id: cases.id, recommendation: cases.recommendation, outcomeBy: cases.outcomeBy });
    if (!row) return false;
    // Handled: what anyone was told of this case is read (before the author is told below, unread).
    await markCasesHandled(tx, [publicId], { now });
    const [entry] = await tx
      .insert(caseEntries)
      .values({
        caseId: row.id,
        at: now,
        actorId: actor.id,
        kind: "confirmation",
        text: sealCaseText("entry", input.comment.trim() || null),
        details: { agree: input.agree, recommendation: row.recommendation },
      })
      .returning({ id: caseEntries.id });
    const { created } = await notifyOutcomeSettled(tx, {
      entryId: entry!.id,
      casePublicId: publicId,
      authorId: row.outcomeBy,
      confirmerId: actor.id,
      agree: input.agree,
      origin: context.origin,
    });
    await succeeded(tx, context, "case.confirm", publicId, { agree: input.agree, recommendation: row.recommendation });
    await publishCaseChange(tx, "case.outcome", publicId);
    return { told: created };
  });
  if (done) {
    if (done.told) void kickOutbox();
    return { outcomeState: state };
  }
  const row = await findCaseRow(db, publicId, connectionHere());
  if (!row) return refused(db, context, "case.confirm", publicId, new AppError("not_found", "No case exists for this verification."));
  if (row.outcomeBy === actor.id && row.outcomeState === "pending_confirmation") {
    return refused(
      db,
      context,
      "case.confirm",
      publicId,
      new AppError("forbidden", "Nobody confirms their own outcome: a second person must."),
    );
  }
  if (row.status !== "open") return refused(db, context, "case.confirm", publicId, new AppError("conflict", "This case is closed."));
  if (row.outcomeState === "pending_confirmation" && (await madeByAuthor(db, actor.id, publicId))) {
    return refused(db, context, "case.confirm", publicId, new ConfirmerNotIndependentError());
  }
  return refused(db, context, "case.confirm", publicId, new AppError("conflict", "This case has no outcome waiting for confirmation."));
}
