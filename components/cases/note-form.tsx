"use client";

import { useTranslations } from "next-intl";
import { useState, type FormEvent } from "react";

import { Button } from "@/components/ui/button";
import { useAddNote } from "@/lib/cases/hooks";
import { NOTE_MAX_CHARS } from "@/lib/cases/rules";

import { byId } from "./case-panel-focus";
import { ErrorLine } from "./error-line";

/** A note on the case (append-only). */
export function NoteForm({ publicId }: { publicId: string }) {
  const t = useTranslations("cases.note");
  const add = useAddNote(publicId);
  const [text, setText] = useState("");
  function submit(event: FormEvent) {
    event.preventDefault();
    // The text stays in the field until the note is stored: a refusal loses nothing typed.
    add.mutate({ text }, { onSuccess: () => setText(""), onSettled: () => byId("case-note")?.focus() });
  }
  return (
    <form onSubmit={submit} className="space-y-2">
      <label htmlFor="case-note" className="block text-sm font-medium text-slate-800">
        {t("label")}
      </label>
      <textarea
        id="case-note"
        value={text}
        maxLength={NOTE_MAX_CHARS}
        onChange={(event) => setText(event.target.value)}
        aria-describedby="case-note-hint"
        rows={2}
        className="block w-full rounded-md border border-slate-300 px-3 py-2 text-sm"
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
