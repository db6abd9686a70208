"use client";

import { useTranslations } from "next-intl";
import { useState, type FormEvent } from "react";

import { Dialog } from "@/components/ui/dialog";
import { DialogFormActions } from "@/components/ui/dialog-form-actions";
import { Field } from "@/components/ui/field";
import type { ReasonCode, Recommendation } from "@/lib/cases/rules";
import { useCreateTemplate } from "@/lib/cases/template-hooks";
import { TEMPLATE_NAME_MAX_CHARS } from "@/lib/cases/templates";

import { ErrorLine } from "./error-line";
import { TemplateList } from "./template-list";

/*
 * The decision panel's template dialogs, loaded when the page is idle or their button is reached
 * (./template-tools.tsx, useLazyDialog): the case page's first load carries neither them nor the template editor.
 */

/** "Save as template": the form's reasons and comment, as they are, under a name of the member's own. */
export function SaveTemplateDialog({
  kind,
  reasons,
  comment,
  open,
  onOpenChange,
}: {
  kind: Recommendation;
  reasons: string[];
  comment: string;
  open: boolean;
  onOpenChange: (open: boolean) => void;
}) {
  const t = useTranslations("cases.templates");
  const tr = useTranslations("cases.recommendation");
  const save = useCreateTemplate();
  const [name, setName] = useState("");
  function submit(event: FormEvent) {
    event.preventDefault();
    // The dialog sits in the decision form's React tree: its submit must not reach the decision form.
    event.stopPropagation();
    save.mutate(
      { kind, scope: "personal", name, reasons: reasons as ReasonCode[], comment },
      {
        onSuccess: () => {
          onOpenChange(false);
          setName("");
        },
      },
    );
  }
  return (
    <Dialog
      open={open}
      onOpenChange={(next) => {
        onOpenChange(next);
        if (!next) save.reset();
      }}
      title={t("saveTitle", { kind: tr(kind) })}
      description={t("saveHint", { example: "{failing_step}" })}
    >
      <form onSubmit={submit} className="space-y-3">
        <Field
          label={t("name")}
          value={name}
          maxLength={TEMPLATE_NAME_MAX_CHARS}
          required
          error={save.error?.fields.includes("name") ? save.error.message : undefined}
          onChange={(event) => setName(event.target.value)}
        />
        {save.error && !save.error.fields.includes("name") ? <ErrorLine error={save.error} /> : null}
        <DialogFormActions cancelLabel={t("cancel")} submitLabel={t("saveSubmit")} pending={save.isPending} />
      </form>
    </Dialog>
  );
}

/** The member's own templates, each edited or retired from the list. */
export function ManageTemplatesDialog({ open, onOpenChange }: { open: boolean; onOpenChange: (open: boolean) => void }) {
  const t = useTranslations("cases.templates");
  return (
    <Dialog open={open} onOpenChange={onOpenChange} title={t("manageTitle")}>
      <TemplateList scope="personal" />
    </Dialog>
  );
}
