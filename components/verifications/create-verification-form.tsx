"use client";

import { useTranslations } from "next-intl";
import { useId, type ChangeEvent } from "react";

import { Dialog } from "@/components/ui/dialog";
import { DialogFormActions } from "@/components/ui/dialog-form-actions";
import { ApiErrorState } from "@/components/ui/error-state";
import { Field } from "@/components/ui/field";
import { withQueryProvider } from "@/components/ui/query-provider";
import { DOCUMENT_TYPES } from "@/lib/verifications/rules";

import { CreatedVerification } from "./created-verification";
import { FlowSelect, useConnectionFlows } from "./flow-select";
import { useCreateVerificationForm, type FieldName } from "./use-create-verification-form";

/*
 * Creating a verification. The form validates with the same parser as POST /api/verifications
 * (./use-create-verification-form.ts), so `integration_origin_public_id` cannot be sent from here.
 */

/**
 * The dialog itself; ./create-verification-dialog.tsx opens it (this module is loaded when its trigger is reached,
 * and brings react-query with it: the list it opens from loads none).
 */
export const CreateVerificationForm = withQueryProvider(CreateVerificationFormBody);

function CreateVerificationFormBody({
  open,
  onOpenChange,
  onCreated,
}: {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  onCreated?: () => void;
}) {
  const t = useTranslations("verifications.create");
  const id = useId();
  const flows = useConnectionFlows();
  const { values, change, errors, mutation, formRef, reset, submit } = useCreateVerificationForm(flows[0]?.id ?? null, onCreated);
  const errorOf = (name: FieldName) => (errors[name] ? t(`errors.${errors[name]}`) : undefined);
  /** What the form's text fields share: a label and its hint named by `key`, required, the value and its error. */
  const textField = (key: "schemaVersion" | "refId" | "documentNumber" | "flowPublicId", name: FieldName, required = true) => ({
    label: t(key),
    hint: t(`${key}Hint`),
    name,
    required,
    autoComplete: "off",
    value: values[key],
    error: errorOf(name),
    onChange: (event: ChangeEvent<HTMLInputElement>) => change({ [key]: event.target.value }),
  });

  return (
    <Dialog
      open={open}
      onOpenChange={(next) => {
        onOpenChange(next);
        if (!next) reset();
      }}
      title={t("title")}
      description={t("description")}
    >
      {mutation.isSuccess ? (
        <CreatedVerification created={mutation.data?.created} onAnother={reset} />
      ) : (
        <form ref={formRef} onSubmit={submit} noValidate className="space-y-4">
          {mutation.isError ? (
            <div className="space-y-2">
              <p className="font-semibold text-red-800">{t("rejectedTitle")}</p>
              {/* Not retried from here: a second POST could create a second verification. */}
              <ApiErrorState error={mutation.error} />
            </div>
          ) : Object.keys(errors).length ? (
            <p role="alert" className="text-sm text-red-700">
              {t("fieldErrors")}
            </p>
          ) : null}
          <Field {...textField("schemaVersion", "schemaVersion")} />
          <Field {...textField("refId", "refId")} />
          <div>
            <label htmlFor={`${id}-type`} className="block text-sm font-medium text-slate-800">
              {t("documentType")}
            </label>
            <select
              id={`${id}-type`}
              name="document.type"
              value={values.documentType}
              aria-invalid={errors["document.type"] ? true : undefined}
              onChange={(event) => change({ documentType: event.target.value })}
              className="mt-1 block w-full rounded-md border border-slate-300 bg-white px-3 py-2 text-sm shadow-sm"
            >
              {DOCUMENT_TYPES.map((type) => (
                <option key={type} value={type}>
                  {t(`documentTypes.${type}`)}
                </option>
              ))}
            </select>
          </div>
          <Field {...textField("documentNumber", "document.number")} inputMode="numeric" />
          {flows.length ? (
            <FlowSelect
              flows={flows}
              value={values.flowPublicId}
              error={errorOf("flowPublicId")}
              onChange={(flowPublicId) => change({ flowPublicId })}
            />
          ) : (
            <Field {...textField("flowPublicId", "flowPublicId", false)} />
          )}
          <DialogFormActions cancelLabel={t("cancel")} submitLabel={t("submit")} pending={mutation.isPending} />
        </form>
      )}
    </Dialog>
  );
}
