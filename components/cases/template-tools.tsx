"use client";

import { useTranslations } from "next-intl";
import { useState, type FormEvent } from "react";

import { Button } from "@/components/ui/button";
import { Dialog } from "@/components/ui/dialog";
import { DialogFormActions } from "@/components/ui/dialog-form-actions";
import { Field } from "@/components/ui/field";
import type { ReasonCode, Recommendation } from "@/lib/cases/rules";
import { useCreateTemplate, useRetireTemplate, useTemplates } from "@/lib/cases/template-hooks";
import { TEMPLATE_NAME_MAX_CHARS } from "@/lib/cases/templates";

import { EditTemplateDialog } from "./edit-template-dialog";
import { ErrorLine } from "./error-line";

const LINK = "text-xs font-medium text-brand-800 underline underline-offset-2 disabled:cursor-not-allowed disabled:text-slate-500";

/** "Save as template": the form's reasons and comment, as they are, under a name of the member's own. */
function SaveTemplateDialog({ kind, reasons, comment }: { kind: Recommendation; reasons: string[]; comment: string }) {
  const t = useTranslations("cases.templates");
  const tr = useTranslations("cases.recommendation");
  const save = useCreateTemplate();
  const [open, setOpen] = useState(false);
  const [name, setName] = useState("");
  function submit(event: FormEvent) {
    event.preventDefault();
    // The dialog sits in the decision form's React tree: its submit must not reach the decision form.
    event.stopPropagation();
    save.mutate(
      { kind, scope: "personal", name, reasons: reasons as ReasonCode[], comment },
      {
        onSuccess: () => {
          setOpen(false);
          setName("");
        },
      },
    );
  }
  return (
    <Dialog
      open={open}
      onOpenChange={(next) => {
        setOpen(next);
        if (!next) save.reset();
      }}
      title={t("saveTitle", { kind: tr(kind) })}
      description={t("saveHint", { example: "{failing_step}" })}
      trigger={
        <button type="button" className={LINK} disabled={reasons.length === 0}>
          {t("save")}
        </button>
      }
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

/**
 * The member's own templates (or the team's, on /admin/cases), every kind, each edited in a dialog or retired with
 * one button when the member may change it.
 */
export function TemplateList({ scope }: { scope: "personal" | "team" }) {
  const t = useTranslations("cases.templates");
  const tr = useTranslations("cases.recommendation");
  const templates = useTemplates();
  const retire = useRetireTemplate();
  const own = (templates.data?.templates ?? []).filter((template) => template.scope === scope);
  if (templates.isPending) return <p className="text-sm text-slate-600">{t("loading")}</p>;
  if (own.length === 0) return <p className="text-sm text-slate-600">{t(scope === "team" ? "noneTeam" : "noneOwn")}</p>;
  return (
    <>
      <ul className="divide-y divide-slate-200" aria-label={t(scope === "team" ? "teamList" : "ownList")}>
        {own.map((template) => (
          <li key={template.id} className="flex flex-wrap items-center gap-2 py-1.5 text-sm">
            <span className="min-w-0 flex-1 break-words">
              <span className="font-medium">{template.name}</span> <span className="text-slate-600">· {tr(template.kind)}</span>
              {template.comment ? <span className="block text-xs break-words text-slate-600">{template.comment}</span> : null}
            </span>
            {template.editable ? <EditTemplateDialog template={template} /> : null}
            {template.editable ? (
              <Button
                type="button"
                variant="secondary"
                aria-label={t("retireNamed", { name: template.name })}
                pending={retire.isPending && retire.variables === template.id}
                onClick={() => retire.mutate(template.id)}
              >
                {t("retire")}
              </Button>
            ) : null}
          </li>
        ))}
      </ul>
      <ErrorLine error={retire.error} />
    </>
  );
}

/** The decision panel's template tools: save the form as a template, and the member's own templates. */
export function TemplateTools({ kind, reasons, comment }: { kind: Recommendation; reasons: string[]; comment: string }) {
  const t = useTranslations("cases.templates");
  return (
    <div className="flex flex-wrap gap-x-3">
      <SaveTemplateDialog kind={kind} reasons={reasons} comment={comment} />
      <Dialog
        title={t("manageTitle")}
        trigger={
          <button type="button" className={LINK}>
            {t("manage")}
          </button>
        }
      >
        <TemplateList scope="personal" />
      </Dialog>
    </div>
  );
}
