"use client";

import { useTranslations } from "next-intl";
import { useSearchParams } from "next/navigation";
import { useState, type FormEvent } from "react";

import { Alert } from "@/components/ui/alert";
import { Button } from "@/components/ui/button";
import { Dialog } from "@/components/ui/dialog";
import { DialogFormActions } from "@/components/ui/dialog-form-actions";
import { Field } from "@/components/ui/field";
import { useSaveView } from "@/lib/views/queries";
import { VIEW_NAME_MAX, viewQueryOf, type ViewScope } from "@/lib/views/rules";

/*
 * "Save this view": the page's filters and sort as they are in its address (both pages keep them there),
 * saved under a name the member gives; the view then shows in their navigation (SavedViewsMenu). A name
 * already used on this page is refused by the server (409 naming `name`) and shown on the field.
 */
export function SaveViewDialog({ scope }: { scope: ViewScope }) {
  const t = useTranslations("views");
  const searchParams = useSearchParams();
  const save = useSaveView();
  const [open, setOpen] = useState(false);
  const [name, setName] = useState("");
  const [saved, setSaved] = useState<string | null>(null);

  const nameError = save.error?.fields.includes("name")
    ? save.error.status === 409
      ? t("save.nameTaken")
      : t("save.nameInvalid")
    : undefined;

  function onOpenChange(next: boolean) {
    setOpen(next);
    if (next) {
      setName("");
      save.reset();
    }
  }

  function onSubmit(event: FormEvent) {
    event.preventDefault();
    save.mutate(
      { scope, name: name.trim(), query: viewQueryOf(searchParams.toString()) },
      {
        onSuccess: ({ view }) => {
          setSaved(view.name);
          setOpen(false);
        },
      },
    );
  }

  return (
    <div className="flex flex-wrap items-center gap-2">
      <Dialog
        open={open}
        onOpenChange={onOpenChange}
        title={t("save.title")}
        description={t("save.description")}
        trigger={<Button variant="secondary">{t("save.open")}</Button>}
      >
        <form onSubmit={onSubmit} className="space-y-4" noValidate>
          <Field
            label={t("save.name")}
            value={name}
            maxLength={VIEW_NAME_MAX}
            required
            autoComplete="off"
            onChange={(event) => setName(event.target.value)}
            error={nameError}
          />
          <div aria-live="assertive">{save.error && !nameError ? <Alert tone="error">{save.error.message}</Alert> : null}</div>
          <DialogFormActions
            cancelLabel={t("save.cancel")}
            submitLabel={t("save.submit")}
            pending={save.isPending}
            cancelDisabled={save.isPending}
            submitDisabled={name.trim() === ""}
          />
        </form>
      </Dialog>
      <p role="status" className="text-sm text-slate-700">
        {saved ? t("save.saved", { name: saved }) : null}
      </p>
    </div>
  );
}
