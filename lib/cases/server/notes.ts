import "server-only";

import { hasPermission } from "@/lib/auth/permissions";
import { caseEntries, cases } from "@/lib/cases/server/tables";
import type { Database } from "@/lib/db/client";
import { mentionedMembers } from "@/lib/notifications/server/mentions";
import { notify } from "@/lib/notifications/server/notify";
import { kickOutbox } from "@/lib/notifications/server/outbox";
import { AppError } from "@/lib/shared/errors";

import { inTransaction, refused, succeeded, type CaseContext } from "./context";
import { caseHere } from "./scope";
import { sealCaseText } from "./sealed-text";

// A note on a case, and telling the members it mentions (what every case action shares: ./context.ts).

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
    const [row] = await tx.select({ id: cases.id, assigneeId: cases.assigneeId }).from(cases).where(caseHere(publicId)).for("share");
    if (!row) return null;
    if (row.assigneeId !== context.actor.id && !hasPermission(context.actor, "cases.assign")) return "not_assignee" as const;
    const entry = await appendNote(tx, { caseId: row.id, at: now, authorId: context.actor.id, text });
    await notifyMentions(tx, { noteId: entry.id, text, casePublicId: publicId, authorId: context.actor.id, origin: context.origin });
    await succeeded(tx, context, "case.note_add", publicId, { length: text.length });
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
 * Writes a note as an entry of its case, its text sealed at rest (./sealed-text.ts): a case's own note (`note`), or
 * one on a monitoring alert of the case (`monitoring_note`, the alert's id in `details`: lib/monitoring/server/
 * notes.ts). Kept with the case's other texts, so the re-seal job (./text-reseal.ts) and a titular's erasure
 * (lib/privacy/server/erasure.ts) treat every note alike.
 */
export async function appendNote(
  tx: Database,
  note: { caseId: string; at: Date; authorId: string; text: string; kind?: "note" | "monitoring_note"; details?: Record<string, unknown> },
): Promise<{ id: number }> {
  const [entry] = await tx
    .insert(caseEntries)
    .values({
      caseId: note.caseId,
      at: note.at,
      actorId: note.authorId,
      kind: note.kind ?? "note",
      text: sealCaseText("entry", note.text),
      details: note.details ?? {},
    })
    .returning({ id: caseEntries.id });
  return entry!;
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
