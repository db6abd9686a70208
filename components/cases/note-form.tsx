"use client";

import { useTranslations } from "next-intl";
import { useState, type FormEvent } from "react";

import { Button } from "@/components/ui/button";
import { useAddNote } from "@/lib/cases/hooks";
import { NOTE_MAX_CHARS } from "@/lib/cases/rules";

import { byId, leaveForm } from "./case-panel-focus";
import { ErrorLine } from "./error-line";
import { TextBox } from "./text-box";

/** A note on the case (append-only). */
export function NoteForm({ publicId }: { publicId: string }) {
  const t = useTranslations("cases.note");
  const add = useAddNote(publicId);
  const [text, setText] = useState("");
  function submit(event: FormEvent) {
    event.preventDefault();
    // The text stays in the field until the note is stored: a refusal loses nothing typed, and keeps the field's
    // focus to correct it; a stored note hands the focus back to the shortcuts.
    leaveForm("case-note-form");
    add.mutate({ text }, { onSuccess: () => setText(""), onError: () => byId("case-note")?.focus() });
  }
  return (
    <form id="case-note-form" onSubmit={submit} className="space-y-2">
      <TextBox
        id="case-note"
        label={t("label")}
        value={text}
        maxLength={NOTE_MAX_CHARS}
        onChange={(event) => setText(event.target.value)}
        aria-describedby="case-note-hint"
      />
      <p id="case-note-hint" className="text-xs text-slate-600">
        {t("hint", { max: NOTE_MAX_CHARS })}
      </p>
      <ErrorLine error={add.error} />
      <Button type="submit" variant="secondary" pending={add.isPending} disabled={text.trim() === ""}>
        {t("submit")}
      </Button>
    </form>
  );
}
