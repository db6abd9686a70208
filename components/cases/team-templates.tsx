"use client";

import { useTranslations } from "next-intl";
import { useState, type FormEvent } from "react";

import { Button } from "@/components/ui/button";
import { Field } from "@/components/ui/field";
import { useReasons } from "@/lib/cases/hooks";
import { COMMENT_MAX_CHARS, REASONS_BY_RECOMMENDATION, RECOMMENDATIONS, type ReasonCode, type Recommendation } from "@/lib/cases/rules";
import { useCreateTemplate } from "@/lib/cases/template-hooks";
import { TEMPLATE_NAME_MAX_CHARS, TEMPLATE_PLACEHOLDERS } from "@/lib/cases/templates";

import { ErrorLine } from "./error-line";
import { TemplateList } from "./template-tools";
import { TextBox } from "./text-box";

/**
 * The team's decision templates on /admin/cases (cases.assign): every member who decides cases sees them first in
 * the decision form, numbered. A new one here; each retired from the list below it.
 */
export function TeamTemplates() {
  const t = useTranslations("cases.templates");
  const tr = useTranslations("cases.recommendation");
  const catalogue = useReasons();
  const create = useCreateTemplate();
  const [kind, setKind] = useState<Recommendation>("reprove");
  const [name, setName] = useState("");
  const [reasons, setReasons] = useState<string[]>([]);
  const [comment, setComment] = useState("");
  const offered = (catalogue.data?.reasons ?? []).filter((reason) => reason.recommendations.includes(kind));
  const fieldError = (field: string) => (create.error?.fields.includes(field) ? create.error.message : undefined);
  function submit(event: FormEvent) {
    event.preventDefault();
    create.mutate(
      { kind, scope: "team", name, reasons: reasons as ReasonCode[], comment },
      {
        onSuccess: () => {
          setName("");
          setReasons([]);
          setComment("");
        },
      },
    );
  }
  return (
    <section aria-labelledby="team-templates-title" className="space-y-3">
      <h2 id="team-templates-title" className="text-lg font-semibold text-slate-900">
        {t("teamTitle")}
      </h2>
      <p className="text-sm text-slate-600">{t("teamHint")}</p>
      <TemplateList scope="team" />
      <form onSubmit={submit} className="max-w-2xl space-y-3" aria-label={t("teamNew")}>
        <fieldset>
          <legend className="text-sm font-medium text-slate-800">{t("kind")}</legend>
          <div className="mt-1 flex flex-wrap gap-4">
            {RECOMMENDATIONS.map((value) => (
              <label key={value} className="flex items-center gap-1 text-sm">
                <input
                  type="radio"
                  name="template-kind"
                  value={value}
                  checked={kind === value}
                  onChange={() => {
                    setKind(value);
                    setReasons((list) => list.filter((code) => (REASONS_BY_RECOMMENDATION[value] as readonly string[]).includes(code)));
                  }}
                />
                {tr(value)}
              </label>
            ))}
          </div>
        </fieldset>
        <Field
          label={t("name")}
          value={name}
          maxLength={TEMPLATE_NAME_MAX_CHARS}
          required
          error={fieldError("name")}
          onChange={(event) => setName(event.target.value)}
        />
        <fieldset aria-describedby={fieldError("reasons") ? "team-template-reasons-error" : undefined}>
          <legend className="text-sm font-medium text-slate-800">{t("reasons")}</legend>
          <div className="mt-1 grid grid-cols-1 gap-1 sm:grid-cols-2">
            {offered.map((reason) => (
              <label key={reason.code} className="flex items-center gap-2 text-sm">
                <input
                  type="checkbox"
                  value={reason.code}
                  checked={reasons.includes(reason.code)}
                  onChange={(event) =>
                    setReasons((list) => (event.target.checked ? [...list, reason.code] : list.filter((code) => code !== reason.code)))
                  }
                />
                {reason.label}
              </label>
            ))}
          </div>
          {fieldError("reasons") ? (
            <p id="team-template-reasons-error" className="text-sm text-red-700">
              {fieldError("reasons")}
            </p>
          ) : null}
        </fieldset>
        <TextBox
          id="team-template-comment"
          label={t("comment")}
          value={comment}
          maxLength={COMMENT_MAX_CHARS}
          aria-describedby="team-template-comment-hint"
          aria-invalid={fieldError("comment") ? true : undefined}
          onChange={(event) => setComment(event.target.value)}
        />
        <p id="team-template-comment-hint" className="text-xs text-slate-600">
          {t("placeholders", { list: TEMPLATE_PLACEHOLDERS.map((placeholder) => `{${placeholder}}`).join(" ") })}
        </p>
        {create.error && !fieldError("name") && !fieldError("reasons") ? <ErrorLine error={create.error} /> : null}
        {create.isSuccess ? <p role="status">{t("created")}</p> : null}
        <Button type="submit" pending={create.isPending}>
          {t("teamSubmit")}
        </Button>
      </form>
    </section>
  );
}
