"use client";

import { useTranslations } from "next-intl";
import { useId } from "react";

import { ErrorLine } from "@/components/cases/error-line";
import { NoteForm } from "@/components/cases/note-form";
import { useDateTime } from "@/components/ui/use-formatters";
import { NOTE_MAX_CHARS } from "@/lib/cases/rules";
import { useAddAlertNote, useAlertNotes } from "@/lib/monitoring/hooks";

/**
 * An alert's notes, oldest first (the words as plain text; an erased or unreadable one says so), and, for its holder or
 * whoever runs the queue, the case's note form sending to the alert's notes (the case notes' limits).
 */
export function AlertNotes({ alertId, mayWrite }: { alertId: string; mayWrite: boolean }) {
  const t = useTranslations("monitoring.notes");
  const notes = useAlertNotes(alertId);
  const add = useAddAlertNote(alertId);
  const when = useDateTime();
  const fieldId = `alert-note-${useId().replace(/:/g, "")}`;

  return (
    <div className="space-y-2 py-2">
      <ErrorLine error={notes.error} />
      {notes.data && notes.data.notes.length === 0 ? <p className="text-sm text-slate-700">{t("empty")}</p> : null}
      {notes.data && notes.data.notes.length > 0 ? (
        <ul className="space-y-1 text-sm" aria-label={t("listLabel")}>
          {notes.data.notes.map((note) => (
            <li key={note.id} className="rounded-md bg-slate-50 px-2 py-1">
              <span className="block text-xs text-slate-700">
                {t("by", { name: note.author?.name || t("someone"), date: when(note.at) ?? "" })}
              </span>
              <span className="break-words whitespace-pre-wrap text-slate-900">
                {note.text ?? (note.redacted ? t("redacted") : t("unreadable"))}
              </span>
            </li>
          ))}
        </ul>
      ) : null}
      {mayWrite ? (
        <NoteForm
          add={add}
          fieldId={fieldId}
          labels={{ label: t("label"), hint: t("hint", { max: NOTE_MAX_CHARS }), submit: t("submit") }}
        />
      ) : null}
    </div>
  );
}
