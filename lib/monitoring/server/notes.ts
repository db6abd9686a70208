import "server-only";

import { and, asc, eq, sql } from "drizzle-orm";

import { recordEvent } from "@/lib/audit-trail/server";
import { hasPermission } from "@/lib/auth/permissions";
import { staffUsers } from "@/lib/auth/server/tables";
import { appendNote, notifyMentions } from "@/lib/cases/server/notes";
import { openCaseText } from "@/lib/cases/server/sealed-text";
import { caseEntries, cases } from "@/lib/cases/server/tables";
import { legacyClearText } from "@/lib/cases/server/text-reseal";
import type { Database } from "@/lib/db/client";
import type { AlertNote } from "@/lib/monitoring/types";
import { kickOutbox } from "@/lib/notifications/server/outbox";
import { AppError } from "@/lib/shared/errors";

import type { AlertActor } from "./alerts";
import { monitoringAlerts } from "./tables";

/*
 * Notes on a monitoring alert: what its holder found and did. Kept as entries of the alert's case (kind
 * `monitoring_note`, the alert's id in `details`), written by the case notes' own function (lib/cases/server/notes.ts,
 * appendNote): the same rules as a case note (noteSchema), the text sealed at rest, re-sealed by the case texts' job
 * and erased by a titular's erasure with the case's other texts, mentions told. The audit trail gets the note's
 * length, never its text. Who may write one: the alert's holder, or a cases.assign holder (403 otherwise).
 */

async function alertOf(db: Database, connectionId: string, id: string, lock: boolean) {
  const query = db
    .select({ alert: monitoringAlerts, caseId: cases.id })
    .from(monitoringAlerts)
    .innerJoin(cases, eq(cases.publicId, monitoringAlerts.publicId))
    .where(and(eq(monitoringAlerts.id, id), eq(monitoringAlerts.connectionId, connectionId)));
  const [row] = lock ? await query.for("share", { of: monitoringAlerts }) : await query;
  if (!row) throw new AppError("not_found", "No monitoring alert has this id.");
  return row;
}

/** Adds a note to the alert (its holder's, or a cases.assign holder's); answers its id and time. */
export async function addAlertNote(
  db: Database,
  context: AlertActor & { origin?: string },
  connectionId: string,
  id: string,
  text: string,
  now = new Date(),
): Promise<{ id: number; at: string }> {
  const note = await db.transaction(async (raw) => {
    const tx = raw as unknown as Database;
    const { alert, caseId } = await alertOf(tx, connectionId, id, true);
    if (alert.assigneeId !== context.actor.id && !hasPermission(context.actor, "cases.assign"))
      throw new AppError("forbidden", "Only the alert's holder, or who runs the queue, adds notes to it. Take the alert first.");
    const entry = await appendNote(tx, {
      caseId,
      at: now,
      authorId: context.actor.id,
      text,
      kind: "monitoring_note",
      details: { alertId: id },
    });
    await notifyMentions(tx, { noteId: entry.id, text, casePublicId: alert.publicId, authorId: context.actor.id, origin: context.origin });
    await recordEvent(
      {
        actor: context.actor,
        ip: context.ip,
        pageView: context.pageView,
        action: "monitoring.alert_note_add",
        target: { type: "verification", id: alert.publicId },
        outcome: "success",
        details: { change: alert.change, length: text.length },
      },
      tx,
    );
    return entry;
  });
  void kickOutbox();
  return { id: note.id, at: now.toISOString() };
}

/**
 * The alert's notes, oldest first: author, time, and the text (or why it cannot be shown: erased, unreadable); with
 * the alert's verification and change (what names the alert on the audit trail).
 */
export async function listAlertNotes(
  db: Database,
  connectionId: string,
  id: string,
): Promise<{ publicId: string; change: string; notes: AlertNote[] }> {
  const { alert, caseId } = await alertOf(db, connectionId, id, false);
  const [rows, legacyClear] = await Promise.all([
    db
      .select({ entry: caseEntries, authorName: staffUsers.name, authorEmail: staffUsers.email })
      .from(caseEntries)
      .leftJoin(staffUsers, eq(staffUsers.id, caseEntries.actorId))
      .where(
        and(eq(caseEntries.caseId, caseId), eq(caseEntries.kind, "monitoring_note"), sql`${caseEntries.details} ->> 'alertId' = ${id}`),
      )
      .orderBy(asc(caseEntries.id)),
    legacyClearText(db),
  ]);
  const notes = rows.map(({ entry, authorName, authorEmail }) => {
    const opened = openCaseText("entry", entry.text, legacyClear);
    return {
      id: entry.id,
      at: entry.at.toISOString(),
      author: entry.actorId ? { id: entry.actorId, name: authorName || authorEmail || "" } : null,
      text: opened.text,
      unreadable: opened.unreadable !== null,
      redacted: entry.redactedAt !== null,
    };
  });
  return { publicId: alert.publicId, change: alert.change, notes };
}
