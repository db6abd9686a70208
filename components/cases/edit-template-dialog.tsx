"use client";

import { useTranslations } from "next-intl";
import { useState, type FormEvent } from "react";

import { Button } from "@/components/ui/button";
import { Dialog } from "@/components/ui/dialog";
import { DialogFormActions } from "@/components/ui/dialog-form-actions";
import type { ReasonCode } from "@/lib/cases/rules";
import { useUpdateTemplate } from "@/lib/cases/template-hooks";
import type { UpdateTemplateInput } from "@/lib/cases/template-validation";
import type { CaseTemplate } from "@/lib/cases/templates";

import { ErrorLine } from "./error-line";
import { draftOf, TemplateFields, unplacedError, type TemplateDraft } from "./template-fields";

/** What the draft changes of the template: only those fields are sent (the trail names them). */
function changesOf(template: CaseTemplate, draft: TemplateDraft): UpdateTemplateInput {
  const changes: UpdateTemplateInput = {};
  if (draft.kind !== template.kind) changes.kind = draft.kind;
  if (draft.name !== template.name) changes.name = draft.name;
  const sameReasons =
    draft.reasons.length === template.reasons.length && draft.reasons.every((code) => template.reasons.includes(code as ReasonCode));
  if (!sameReasons) changes.reasons = draft.reasons as ReasonCode[];
  if (draft.comment !== template.comment) changes.comment = draft.comment;
  return changes;
}

/**
 * "Edit" on a template of the list: a dialog holding its kind, name, reasons and comment as they are, saved through
 * PATCH /api/cases/templates/{id}; a refusal naming a field is shown next to it, and the dialog stays open.
 */
export function EditTemplateDialog({ template }: { template: CaseTemplate }) {
  const t = useTranslations("cases.templates");
  const update = useUpdateTemplate();
  const [open, setOpen] = useState(false);
  const [draft, setDraft] = useState<TemplateDraft>(() => draftOf(template));
  function submit(event: FormEvent) {
    event.preventDefault();
    // The dialog may sit in the decision form's React tree (My templates): its submit must not reach that form.
    event.stopPropagation();
    const changes = changesOf(template, draft);
    if (Object.keys(changes).length === 0) {
      setOpen(false);
      return;
    }
    update.mutate({ id: template.id, changes }, { onSuccess: () => setOpen(false) });
  }
  return (
    <Dialog
      open={open}
      onOpenChange={(next) => {
        // Opened: the template as it is now; closed: the refusal goes with it.
        if (next) setDraft(draftOf(template));
        else update.reset();
        setOpen(next);
      }}
      title={t("editTitle", { name: template.name })}
      description={t("editHint", { example: "{failing_step}" })}
      trigger={
        <Button type="button" variant="secondary" aria-label={t("editNamed", { name: template.name })}>
          {t("edit")}
        </Button>
      }
    >
      <form onSubmit={submit} className="space-y-3" aria-label={t("editForm")}>
        <TemplateFields draft={draft} onChange={setDraft} error={update.error} />
        <ErrorLine error={unplacedError(update.error)} />
        <DialogFormActions cancelLabel={t("cancel")} submitLabel={t("editSubmit")} pending={update.isPending} />
      </form>
    </Dialog>
  );
}
