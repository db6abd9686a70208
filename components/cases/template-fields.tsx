"use client";

import { useTranslations } from "next-intl";
import { useId } from "react";

import { Field } from "@/components/ui/field";
import { useReasons } from "@/lib/cases/hooks";
import { COMMENT_MAX_CHARS, REASONS_BY_RECOMMENDATION, RECOMMENDATIONS, type Recommendation } from "@/lib/cases/rules";
import { TEMPLATE_NAME_MAX_CHARS, TEMPLATE_PLACEHOLDERS, type CaseTemplate } from "@/lib/cases/templates";
import type { ApiRequestError } from "@/lib/shared/api-client/api-request";

import { TextBox } from "./text-box";

/*
 * A decision template's fields (its kind, name, reasons and comment with its placeholders), shared by the team's
 * new-template form and the edit dialog. A refusal that names a field is shown next to it, tied to it for screen
 * readers; `unplacedError` gives the caller the others, to show once below.
 */

export interface TemplateDraft {
  kind: Recommendation;
  name: string;
  reasons: string[];
  comment: string;
}

const TEMPLATE_FIELDS = ["kind", "name", "reasons", "comment"] as const;

export const draftOf = (template: Pick<CaseTemplate, "kind" | "name" | "reasons" | "comment">): TemplateDraft => ({
  kind: template.kind,
  name: template.name,
  reasons: [...template.reasons],
  comment: template.comment,
});

/**
 * What a refusal says of one field: its own part of a validation message (`Invalid input: name: must not be
 * empty; comment: …`), else the whole message when it names that field alone (a 409 on `name`).
 */
function fieldMessage(error: ApiRequestError | null | undefined, field: string): string | undefined {
  if (!error?.fields.includes(field)) return undefined;
  const parts = error.message
    .replace(/^Invalid input:\s*/, "")
    .replace(/\.$/, "")
    .split("; ");
  const own = parts.find((part) => part.startsWith(`${field}: `));
  return own ? own.slice(field.length + 2) : error.message;
}

/** A refusal that names none of the template's fields: shown once, under the form. */
export const unplacedError = (error: ApiRequestError | null | undefined): ApiRequestError | null =>
  error && !TEMPLATE_FIELDS.some((field) => error.fields.includes(field)) ? error : null;

export function TemplateFields({
  draft,
  onChange,
  error,
}: {
  draft: TemplateDraft;
  onChange: (next: TemplateDraft) => void;
  error?: ApiRequestError | null;
}) {
  const t = useTranslations("cases.templates");
  const tr = useTranslations("cases.recommendation");
  const catalogue = useReasons();
  const id = useId();
  const offered = (catalogue.data?.reasons ?? []).filter((reason) => reason.recommendations.includes(draft.kind));
  const errors = {
    kind: fieldMessage(error, "kind"),
    reasons: fieldMessage(error, "reasons"),
    comment: fieldMessage(error, "comment"),
  };
  const described = (...ids: (string | false)[]) => ids.filter(Boolean).join(" ") || undefined;
  return (
    <>
      <fieldset aria-describedby={errors.kind ? `${id}-kind-error` : undefined}>
        <legend className="text-sm font-medium text-slate-800">{t("kind")}</legend>
        <div className="mt-1 flex flex-wrap gap-4">
          {RECOMMENDATIONS.map((value) => (
            <label key={value} className="flex items-center gap-1 text-sm">
              <input
                type="radio"
                name={`${id}-kind`}
                value={value}
                checked={draft.kind === value}
                onChange={() =>
                  // The reasons the new kind may not cite are unticked: the server would refuse them.
                  onChange({
                    ...draft,
                    kind: value,
                    reasons: draft.reasons.filter((code) => (REASONS_BY_RECOMMENDATION[value] as readonly string[]).includes(code)),
                  })
                }
              />
              {tr(value)}
            </label>
          ))}
        </div>
        {errors.kind ? (
          <p id={`${id}-kind-error`} className="text-sm text-red-700">
            {errors.kind}
          </p>
        ) : null}
      </fieldset>
      <Field
        label={t("name")}
        value={draft.name}
        maxLength={TEMPLATE_NAME_MAX_CHARS}
        required
        error={fieldMessage(error, "name")}
        onChange={(event) => onChange({ ...draft, name: event.target.value })}
      />
      <fieldset aria-describedby={errors.reasons ? `${id}-reasons-error` : undefined}>
        <legend className="text-sm font-medium text-slate-800">{t("reasons")}</legend>
        <div className="mt-1 grid grid-cols-1 gap-1 sm:grid-cols-2">
          {offered.map((reason) => (
            <label key={reason.code} className="flex items-center gap-2 text-sm">
              <input
                type="checkbox"
                value={reason.code}
                checked={draft.reasons.includes(reason.code)}
                aria-invalid={errors.reasons ? true : undefined}
                onChange={(event) =>
                  onChange({
                    ...draft,
                    reasons: event.target.checked ? [...draft.reasons, reason.code] : draft.reasons.filter((code) => code !== reason.code),
                  })
                }
              />
              {reason.label}
            </label>
          ))}
        </div>
        {errors.reasons ? (
          <p id={`${id}-reasons-error`} className="text-sm text-red-700">
            {errors.reasons}
          </p>
        ) : null}
      </fieldset>
      <div className="space-y-1">
        <TextBox
          id={`${id}-comment`}
          label={t("comment")}
          value={draft.comment}
          maxLength={COMMENT_MAX_CHARS}
          aria-describedby={described(`${id}-comment-hint`, Boolean(errors.comment) && `${id}-comment-error`)}
          aria-invalid={errors.comment ? true : undefined}
          onChange={(event) => onChange({ ...draft, comment: event.target.value })}
        />
        <p id={`${id}-comment-hint`} className="text-xs text-slate-600">
          {t("placeholders", { list: TEMPLATE_PLACEHOLDERS.map((placeholder) => `{${placeholder}}`).join(" ") })}
        </p>
        {errors.comment ? (
          <p id={`${id}-comment-error`} className="text-sm text-red-700">
            {errors.comment}
          </p>
        ) : null}
      </div>
    </>
  );
}
