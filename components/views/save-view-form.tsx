"use client";

import { useTranslations } from "next-intl";
import { useSearchParams } from "next/navigation";
import { useState, type FormEvent } from "react";

import { Alert } from "@/components/ui/alert";
import { Dialog } from "@/components/ui/dialog";
import { DialogFormActions } from "@/components/ui/dialog-form-actions";
import { Field } from "@/components/ui/field";
import { withQueryProvider } from "@/components/ui/query-provider";
import { useSaveView } from "@/lib/views/hooks";
import { VIEW_NAME_MAX, viewQueryOf, type ViewScope } from "@/lib/views/rules";

/**
 * The "Save this view" dialog (./save-view-dialog.tsx loads it when its button is reached, and mounts it
 * afresh on each opening: an empty name, no earlier refusal). With react-query, which comes with this module: the
 * verifications list loads none with its first paint.
 */
export const SaveViewForm = withQueryProvider(SaveViewFormBody);

function SaveViewFormBody({
  scope,
  open,
  onOpenChange,
  onSaved,
}: {
  scope: ViewScope;
  open: boolean;
  onOpenChange: (open: boolean) => void;
  onSaved: (name: string) => void;
}) {
  const t = useTranslations("views");
  const searchParams = useSearchParams();
  const save = useSaveView();
  const [name, setName] = useState("");

  const nameError = save.error?.fields.includes("name")
    ? save.error.status === 409
      ? t("save.nameTaken")
      : t("save.nameInvalid")
    : undefined;

  function onSubmit(event: FormEvent) {
    event.preventDefault();
    save.mutate(
      { scope, name: name.trim(), query: viewQueryOf(searchParams.toString()) },
      {
        onSuccess: ({ view }) => {
          onSaved(view.name);
          onOpenChange(false);
        },
      },
    );
  }

  return (
    <Dialog open={open} onOpenChange={onOpenChange} title={t("save.title")} description={t("save.description")}>
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
  );
}
