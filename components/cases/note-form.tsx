"use client";

import { useTranslations } from "next-intl";
import { useState, type FormEvent } from "react";

import { Button } from "@/components/ui/button";
import { useAddNote } from "@/lib/cases/hooks";
import { NOTE_MAX_CHARS } from "@/lib/cases/rules";
import type { ApiRequestError } from "@/lib/shared/api-client/api-request";

import { byId, leaveForm } from "./case-panel-focus";
import { ErrorLine } from "./error-line";
import { TextBox } from "./text-box";

/** What a note is sent through: its mutation (the case's useAddNote, the monitoring alert's useAddAlertNote). */
interface NoteSender {
  mutate: (input: { text: string }, options: { onSuccess: () => void; onError: () => void }) => void;
  error: ApiRequestError | null;
  isPending: boolean;
}

/**
 * A note (append-only, plain text under the notes' limit): the case's and the monitoring alert's, told apart by what
 * they send it through, their field's id and their words. The text stays in the field until the note is stored: a
 * refusal loses nothing typed, and hands the focus back to the field to correct it.
 */
export function NoteForm({
  add,
  fieldId,
  formId,
  labels,
  onSend,
}: {
  add: NoteSender;
  fieldId: string;
  formId?: string;
  labels: { label: string; hint: string; submit: string };
  /** As the note is sent: where the focus goes meanwhile (the case panel's heading, for its shortcuts). */
  onSend?: () => void;
}) {
  const [text, setText] = useState("");
  function submit(event: FormEvent) {
    event.preventDefault();
    onSend?.();
    add.mutate({ text }, { onSuccess: () => setText(""), onError: () => byId(fieldId)?.focus() });
  }
  return (
    <form id={formId} onSubmit={submit} className="space-y-2">
      <TextBox
        id={fieldId}
        label={labels.label}
        value={text}
        maxLength={NOTE_MAX_CHARS}
        onChange={(event) => setText(event.target.value)}
        aria-describedby={`${fieldId}-hint`}
      />
      <p id={`${fieldId}-hint`} className="text-xs text-slate-600">
        {labels.hint}
      </p>
      <ErrorLine error={add.error} />
      <Button type="submit" variant="secondary" pending={add.isPending} disabled={text.trim() === ""}>
        {labels.submit}
      </Button>
    </form>
  );
}

/** A note on the case: a stored one hands the focus back to the panel's shortcuts. */
export function CaseNoteForm({ publicId }: { publicId: string }) {
  const t = useTranslations("cases.note");
  const add = useAddNote(publicId);
  return (
    <NoteForm
      add={add}
      fieldId="case-note"
      formId="case-note-form"
      labels={{ label: t("label"), hint: t("hint", { max: NOTE_MAX_CHARS }), submit: t("submit") }}
      onSend={() => leaveForm("case-note-form")}
    />
  );
}
