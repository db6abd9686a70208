"use client";

import { useTranslations } from "next-intl";
import Link from "next/link";
import { useId, useRef, useState, type FormEvent } from "react";

import { Alert } from "@/components/ui/alert";
import { Button } from "@/components/ui/button";
import { Dialog, DialogClose } from "@/components/ui/dialog";
import { DialogFormActions } from "@/components/ui/dialog-form-actions";
import { Field } from "@/components/ui/field";
import { useDateTime } from "@/components/ui/use-formatters";
import { useCreateVerification } from "@/lib/verifications/hooks";
import { DOCUMENT_TYPES, parseCreateVerificationInput, type ProblemCode } from "@/lib/verifications/rules";

import { ApiErrorState } from "./error-state";

/*
 * Creating a verification. The form validates with the same parser as POST /api/verifications; the
 * body has exactly schemaVersion, refId and document (the parser is strict and the upstream client
 * builds its body field by field), so `integration_origin_public_id` cannot be sent from here.
 */

type FieldName = "schemaVersion" | "refId" | "document.type" | "document.number";
const FIELDS: FieldName[] = ["schemaVersion", "refId", "document.type", "document.number"];

// The service names fields in snake_case; the form in camelCase.
const UPSTREAM_FIELD: Record<string, FieldName> = {
  schema_version: "schemaVersion",
  ref_id: "refId",
  "document.type": "document.type",
  "document.number": "document.number",
  document: "document.number",
};

function fieldOf(path: string): FieldName | undefined {
  if ((FIELDS as string[]).includes(path)) return path as FieldName;
  return UPSTREAM_FIELD[path];
}

type ErrorKind = "required" | "tooLong" | "invalidCpf" | "invalid";

const KIND: Partial<Record<ProblemCode, ErrorKind>> = { required: "required", too_long: "tooLong", invalid_cpf: "invalidCpf" };

const EMPTY = { schemaVersion: "1", refId: "", documentType: "cpf", documentNumber: "" };

/** The dialog itself; ./create-verification-dialog.tsx opens it (this module is loaded when its trigger is reached). */
export function CreateVerificationForm({ open, onOpenChange }: { open: boolean; onOpenChange: (open: boolean) => void }) {
  const t = useTranslations("verifications.create");
  const id = useId();
  const [values, setValues] = useState(EMPTY);
  const [errors, setErrors] = useState<Partial<Record<FieldName, ErrorKind>>>({});
  const mutation = useCreateVerification();
  const formRef = useRef<HTMLFormElement>(null);

  const reset = () => {
    setValues(EMPTY);
    setErrors({});
    mutation.reset();
  };

  const focusFirstInvalid = (names: FieldName[]) => {
    const first = FIELDS.find((name) => names.includes(name));
    if (first) formRef.current?.querySelector<HTMLElement>(`[name="${first}"]`)?.focus();
  };

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const input = {
      schemaVersion: values.schemaVersion,
      refId: values.refId,
      document: { type: values.documentType, number: values.documentNumber },
    };
    const parsed = parseCreateVerificationInput(input);
    if (!parsed.ok) {
      const next: Partial<Record<FieldName, ErrorKind>> = {};
      for (const problem of parsed.problems) {
        const name = fieldOf(problem.field);
        if (name && !next[name]) next[name] = (problem.code && KIND[problem.code]) ?? "invalid";
      }
      setErrors(next);
      focusFirstInvalid(Object.keys(next) as FieldName[]);
      return;
    }
    setErrors({});
    mutation.mutate(parsed.value, {
      onError: (error) => {
        const rejected = error.fields.map(fieldOf).filter((name): name is FieldName => name !== undefined);
        if (rejected.length) {
          setErrors(Object.fromEntries(rejected.map((name) => [name, "invalid" as const])));
          focusFirstInvalid(rejected);
        }
      },
    });
  };

  const created = mutation.data?.created;
  const dateTime = useDateTime();
  const errorOf = (name: FieldName) => (errors[name] ? t(`errors.${errors[name]}`) : undefined);

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
        <div className="space-y-4">
          {/* A repeat of the same ref_id and body answers the existing verification (200): said plainly. */}
          <Alert tone={created?.replayed ? "info" : "success"} title={t(created?.replayed ? "replayed" : "created")}>
            {created?.publicId ? (
              <p>
                {t(created.replayed ? "replayedBody" : "createdBody")}{" "}
                <Link
                  href={`/verifications/${encodeURIComponent(created.publicId)}`}
                  className="font-mono font-medium text-emerald-900 underline"
                >
                  {created.publicId}
                </Link>
              </p>
            ) : (
              <p>{t("createdNoId")}</p>
            )}
            {created?.status ? <p className="mt-1">{t("currentStatus", { status: created.status })}</p> : null}
            {created?.expiresAt ? (
              <p className="mt-1">{t("expiresAt", { date: dateTime(created.expiresAt) ?? created.expiresAt })}</p>
            ) : null}
          </Alert>
          <div className="flex flex-wrap justify-end gap-2">
            <Button variant="secondary" onClick={reset}>
              {t("another")}
            </Button>
            {created?.publicId ? (
              <Link
                href={`/verifications/${encodeURIComponent(created.publicId)}`}
                className="inline-flex items-center rounded-md bg-brand-700 px-4 py-2 text-sm font-medium text-white hover:bg-brand-800"
                autoFocus
              >
                {t("openCreated")}
              </Link>
            ) : (
              <DialogClose asChild>
                <Button>{t("close")}</Button>
              </DialogClose>
            )}
          </div>
        </div>
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
          <Field
            label={t("schemaVersion")}
            hint={t("schemaVersionHint")}
            name="schemaVersion"
            required
            autoComplete="off"
            value={values.schemaVersion}
            error={errorOf("schemaVersion")}
            onChange={(event) => setValues({ ...values, schemaVersion: event.target.value })}
          />
          <Field
            label={t("refId")}
            hint={t("refIdHint")}
            name="refId"
            required
            autoComplete="off"
            value={values.refId}
            error={errorOf("refId")}
            onChange={(event) => setValues({ ...values, refId: event.target.value })}
          />
          <div>
            <label htmlFor={`${id}-type`} className="block text-sm font-medium text-slate-800">
              {t("documentType")}
            </label>
            <select
              id={`${id}-type`}
              name="document.type"
              value={values.documentType}
              aria-invalid={errors["document.type"] ? true : undefined}
              onChange={(event) => setValues({ ...values, documentType: event.target.value })}
              className="mt-1 block w-full rounded-md border border-slate-300 bg-white px-3 py-2 text-sm shadow-sm"
            >
              {DOCUMENT_TYPES.map((type) => (
                <option key={type} value={type}>
                  {t(`documentTypes.${type}`)}
                </option>
              ))}
            </select>
          </div>
          <Field
            label={t("documentNumber")}
            hint={t("documentNumberHint")}
            name="document.number"
            required
            inputMode="numeric"
            autoComplete="off"
            value={values.documentNumber}
            error={errorOf("document.number")}
            onChange={(event) => setValues({ ...values, documentNumber: event.target.value })}
          />
          <DialogFormActions cancelLabel={t("cancel")} submitLabel={t("submit")} pending={mutation.isPending} />
        </form>
      )}
    </Dialog>
  );
}
