import "server-only";

import { and, eq, isNotNull, isNull, ne, not, or, sql } from "drizzle-orm";

import { failureOf, recordEvent } from "@/lib/audit-trail/server";
import { hasPermission, type Permission } from "@/lib/auth/permissions";
import { accessGivenByRequester, ConfirmerNotIndependentError } from "@/lib/auth/server/four-eyes";
import { staffUsers } from "@/lib/auth/server/tables";
import { FOUR_EYES_FLAGS } from "@/lib/cases/rules";
import { caseEntries, cases, type CaseRow } from "@/lib/cases/server/tables";
import type { ConfirmationInput, OutcomeInput } from "@/lib/cases/validation";
import type { Database } from "@/lib/db/client";
import { log } from "@/lib/log";
import { mentionedMembers } from "@/lib/notifications/server/mentions";
import { membersHolding, notify } from "@/lib/notifications/server/notify";
import { kickOutbox } from "@/lib/notifications/server/outbox";
import { AppError } from "@/lib/shared/errors";

import { publishCaseChange } from "./live";
import { sealCaseText } from "./sealed-text";
import { findCaseRow } from "./store";

/*
 * Case actions. Each is database-only: one conditional UPDATE decides (never read-then-write, so two
 * instances racing for a claim or a confirmation get one winner), and the history entry and the audit
 * event commit in the same transaction. A refused action is recorded on the trail too (best effort,
 * outside the rolled-back transaction) and answered with the reason: 404, 403 or 409 naming the holder.
 * Notes' and comments' text stays in the case history, never in the audit trail, and is sealed at rest
 * (./sealed-text.ts).
 */

export interface CaseActor {
  id: string;
  email: string;
  /** The actor's permissions: `cases.assign` assigns to others and unassigns anyone. */
  permissions: readonly Permission[];
}

export interface CaseContext {
  actor: CaseActor;
  ip: string | null;
  /** The request's page view (lib/audit-trail/server/context.ts), written into each event. */
  pageView?: string;
  /** The request's origin: the link in notifications sent out when no public address is configured. */
  origin?: string;
}

/** 409 when someone else holds the case; the message names them. */
export class CaseTakenError extends AppError {
  constructor(readonly holder: { id: string; email: string }) {
    super("conflict", `This case is assigned to ${holder.email}.`);
  }
}

type Tx = Database;

function target(publicId: string) {
  return { type: "verification", id: publicId } as const;
}

async function refused(db: Database, context: CaseContext, action: string, publicId: string, error: AppError): Promise<never> {
  // The trail's one failure vocabulary (denied for 403, the error code as the reason).
  const { outcome, reason } = failureOf(error);
  await recordEvent(
    {
      actor: { id: context.actor.id, email: context.actor.email },
      ip: context.ip,
      pageView: context.pageView,
      action,
      target: target(publicId),
      outcome,
      details: { reason },
    },
    db,
  ).catch((auditError: unknown) => log.error("audit_failed", { action, error: auditError }));
  throw error;
}

async function inTransaction<T>(db: Database, work: (tx: Tx) => Promise<T>): Promise<T> {
  return db.transaction((tx) => work(tx as unknown as Tx));
}

async function holderOf(db: Database, row: CaseRow): Promise<{ id: string; email: string } | null> {
  if (!row.assigneeId) return null;
  const [staff] = await db.select({ id: staffUsers.id, email: staffUsers.email }).from(staffUsers).where(eq(staffUsers.id, row.assigneeId));
  return staff ?? { id: row.assigneeId, email: "another staff member" };
}

export type Assignee = "me" | string | null;

/** Assign to me, to someone (`cases.assign`), or unassign. Answers the new assignee's id. */
export async function assignCase(
  db: Database,
  context: CaseContext,
  publicId: string,
  assignee: Assignee,
): Promise<{ assigneeId: string | null }> {
  const { actor } = context;
  const assigns = hasPermission(actor, "cases.assign");
  const action = assignee === null ? "case.unassign" : "case.assign";
  if (assignee !== null && assignee !== "me" && assignee !== actor.id && !assigns) {
    return refused(
      db,
      context,
      action,
      publicId,
      new AppError("forbidden", "Assigning a case to someone else needs the cases.assign permission."),
    );
  }
  const to = assignee === "me" ? actor.id : assignee;
  // An analyst naming their own id is claiming, exactly like "me".
  const claim = assignee === "me" || (to === actor.id && !assigns);
  let assigneeEmail = actor.email;
  if (to !== null && to !== actor.id) {
    const [staff] = await db
      .select({ disabled: staffUsers.disabled, email: staffUsers.email })
      .from(staffUsers)
      .where(eq(staffUsers.id, to));
    if (!staff || staff.disabled) {
      return refused(
        db,
        context,
        action,
        publicId,
        new AppError("validation", "Invalid input: assignee: no active staff member has this id.", { fields: ["assignee"] }),
      );
    }
    assigneeEmail = staff.email;
  }
  const now = new Date();
  // "me" is a claim, for cases.assign holders too: only an unassigned case, so of two claims at once one wins.
  // A cases.assign holder naming a staff id (their own included) reassigns whoever holds it.
  const guard =
    to === null
      ? assigns
        ? isNotNull(cases.assigneeId)
        : eq(cases.assigneeId, actor.id)
      : claim
        ? isNull(cases.assigneeId)
        : or(isNull(cases.assigneeId), ne(cases.assigneeId, to))!;
  // An escalation goes to someone other than its author: nobody decides their own escalation.
  const notOwnEscalation =
    to === null ? undefined : sql`not (coalesce(${cases.recommendation} = 'escalate', false) and ${cases.outcomeBy} = ${to})`;
  const done = await inTransaction(db, async (tx) => {
    const [row] = await tx
      .update(cases)
      .set({ assigneeId: to, assignedAt: to ? now : null, updatedAt: now })
      .where(and(eq(cases.publicId, publicId), eq(cases.status, "open"), guard, notOwnEscalation))
      .returning({ id: cases.id });
    if (!row) return false;
    await tx
      .insert(caseEntries)
      .values({ caseId: row.id, at: now, actorId: actor.id, kind: to ? "assigned" : "unassigned", details: { assigneeId: to } });
    await recordEvent(
      {
        actor,
        ip: context.ip,
        pageView: context.pageView,
        action,
        target: target(publicId),
        outcome: "success",
        details: to && to !== actor.id ? { assignee: assigneeEmail } : {},
      },
      tx,
    );
    await publishCaseChange(tx, to ? "case.assigned" : "case.unassigned", publicId);
    return true;
  });
  if (done) return { assigneeId: to };
  // Nothing changed: say why, from the case as it is now.
  const row = await findCaseRow(db, publicId);
  if (!row) return refused(db, context, action, publicId, new AppError("not_found", "No case exists for this verification."));
  if (row.status !== "open") return refused(db, context, action, publicId, new AppError("conflict", "This case is closed."));
  if (row.assigneeId === to) return { assigneeId: to }; // already so: nothing to record
  if (to !== null && row.recommendation === "escalate" && row.outcomeBy === to) {
    return refused(db, context, action, publicId, new AppError("forbidden", "An escalation goes to someone other than its author."));
  }
  const holder = await holderOf(db, row);
  if (to === null)
    return refused(
      db,
      context,
      action,
      publicId,
      new AppError("forbidden", `Only the assignee, or someone holding cases.assign, unassigns this case.`),
    );
  return refused(db, context, action, publicId, new CaseTakenError(holder!));
}

export interface NoteResult {
  id: number;
  at: string;
}

/**
 * Appends a note (author and time); its text never reaches the audit trail, only that a note was added. By the
 * case's assignee, or a member holding cases.assign (who runs the queue), as a re-verification;
 * anyone else is refused (403). The case's row is held (FOR SHARE) while the note is written, so an assignment
 * cannot change under it.
 */
export async function addNote(db: Database, context: CaseContext, publicId: string, text: string): Promise<NoteResult> {
  const now = new Date();
  const note = await inTransaction(db, async (tx) => {
    const [row] = await tx
      .select({ id: cases.id, assigneeId: cases.assigneeId })
      .from(cases)
      .where(eq(cases.publicId, publicId))
      .for("share");
    if (!row) return null;
    if (row.assigneeId !== context.actor.id && !hasPermission(context.actor, "cases.assign")) return "not_assignee" as const;
    const [entry] = await tx
      .insert(caseEntries)
      .values({ caseId: row.id, at: now, actorId: context.actor.id, kind: "note", text: sealCaseText("entry", text) })
      .returning({ id: caseEntries.id });
    await notifyMentions(tx, { noteId: entry!.id, text, casePublicId: publicId, authorId: context.actor.id, origin: context.origin });
    await recordEvent(
      {
        actor: context.actor,
        ip: context.ip,
        pageView: context.pageView,
        action: "case.note_add",
        target: target(publicId),
        outcome: "success",
        details: { length: text.length },
      },
      tx,
    );
    return entry!;
  });
  if (!note) return refused(db, context, "case.note_add", publicId, new AppError("not_found", "No case exists for this verification."));
  if (note === "not_assignee") {
    return refused(
      db,
      context,
      "case.note_add",
      publicId,
      new AppError(
        "forbidden",
        "Only the case's assignee, or someone holding cases.assign, adds notes. Assign the case to yourself first.",
      ),
    );
  }
  void kickOutbox();
  return { id: note.id, at: now.toISOString() };
}

/**
 * Tells the members a note mentions (`@name`, `@email`) who can read cases, once per note (its entry id is
 * the dedupe key, so processing the same note again tells nobody twice). The note's text is not copied.
 */
export async function notifyMentions(
  db: Database,
  note: { noteId: number; text: string; casePublicId: string; authorId: string; origin?: string },
): Promise<{ created: number }> {
  const userIds = await mentionedMembers(db, note.text, note.authorId);
  return notify(db, {
    userIds,
    kind: "mention",
    casePublicId: note.casePublicId,
    dedupeKey: String(note.noteId),
    actorId: note.authorId,
    origin: note.origin,
  });
}

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

// lib/cases/rules.ts needsConfirmation, as SQL on the row's own flags.
const NEEDS_CONFIRMATION = (recommendation: string) =>
  sql`(${recommendation} <> 'escalate' and (${recommendation} = 'reprove' or ${cases.flags} && array[${sql.join(
    FOUR_EYES_FLAGS.map((flag) => sql`${flag}`),
    sql`, `,
  )}]::text[]))`;

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
        outcomeState: sql`case when ${NEEDS_CONFIRMATION(input.recommendation)} then 'pending_confirmation' else 'recorded' end`,
        confirmedBy: null,
        confirmedAt: null,
        ...(escalating ? { assigneeId: null, assignedAt: null } : {}),
        updatedAt: now,
      })
      .where(
        and(
          eq(cases.publicId, publicId),
          eq(cases.status, "open"),
          eq(cases.assigneeId, actor.id),
          // A confirmed outcome is settled; a pending, rejected or plain one may be replaced by the assignee.
          or(isNull(cases.outcomeState), ne(cases.outcomeState, "confirmed")),
        ),
      )
      .returning({ id: cases.id, outcomeState: cases.outcomeState });
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
    if (row.outcomeState === "pending_confirmation") {
      await notifyConfirmationWaiting(tx, { entryId: entry!.id, casePublicId: publicId, authorId: actor.id, origin: context.origin });
    }
    if (escalating) {
      await tx.insert(caseEntries).values({ caseId: row.id, at: now, actorId: actor.id, kind: "escalated", details: {} });
    }
    await recordEvent(
      {
        actor,
        ip: context.ip,
        pageView: context.pageView,
        action: "case.outcome",
        target: target(publicId),
        outcome: "success",
        details: { recommendation: input.recommendation, reasons: input.reasons.join(","), state: row.outcomeState },
      },
      tx,
    );
    await publishCaseChange(tx, "case.outcome", publicId);
    return { outcomeState: row.outcomeState! };
  });
  if (result) {
    if (result.outcomeState === "pending_confirmation") void kickOutbox();
    return result;
  }
  const row = await findCaseRow(db, publicId);
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
    .where(eq(cases.publicId, publicId));
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
          eq(cases.publicId, publicId),
          eq(cases.status, "open"),
          eq(cases.outcomeState, "pending_confirmation"),
          // Nobody confirms their own outcome, whatever their role, nor one whose author made their access.
          ne(cases.outcomeBy, actor.id),
          not(accessGivenByRequester(actor.id, cases.outcomeBy, cases.outcomeAt)),
        ),
      )
      .returning({ id: cases.id, recommendation: cases.recommendation });
    if (!row) return false;
    await tx.insert(caseEntries).values({
      caseId: row.id,
      at: now,
      actorId: actor.id,
      kind: "confirmation",
      text: sealCaseText("entry", input.comment.trim() || null),
      details: { agree: input.agree, recommendation: row.recommendation },
    });
    await recordEvent(
      {
        actor,
        ip: context.ip,
        pageView: context.pageView,
        action: "case.confirm",
        target: target(publicId),
        outcome: "success",
        details: { agree: input.agree, recommendation: row.recommendation },
      },
      tx,
    );
    await publishCaseChange(tx, "case.outcome", publicId);
    return true;
  });
  if (done) return { outcomeState: state };
  const row = await findCaseRow(db, publicId);
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
