"use client";

import { useTranslations } from "next-intl";
import { useEffect, useState, type FormEvent } from "react";

import { Button } from "@/components/ui/button";
import { useReasons, useRecordOutcome } from "@/lib/cases/hooks";
import {
  outcomeProblems,
  REASONS_BY_RECOMMENDATION,
  RECOMMENDATIONS,
  type OutcomeProblem,
  type ReasonCode,
  type Recommendation,
} from "@/lib/cases/rules";

import { byId, leaveForm, reasonFocus } from "./case-panel-focus";
import { ErrorLine } from "./error-line";
import { TemplatePicker } from "./template-picker";
import { TextBox } from "./text-box";

/**
 * The assignee's decision on a case: a recommendation, its reasons from the catalogue and a comment (required
 * to reprove), recorded for a second person to confirm. Its controls carry the ids the case page's shortcuts
 * act through (./use-case-shortcuts.ts).
 */
export function DecisionForm({ publicId }: { publicId: string }) {
  const t = useTranslations("cases.outcome");
  const tr = useTranslations("cases.recommendation");
  const reasons = useReasons();
  const record = useRecordOutcome(publicId);
  const [recommendation, setRecommendation] = useState<Recommendation>("approve");
  const [chosen, setChosen] = useState<string[]>([]);
  const [comment, setComment] = useState("");
  // The rule the server applies, checked here first so a wrong outcome is said before it is sent.
  const [problems, setProblems] = useState<OutcomeProblem[]>([]);
  const offered = (reasons.data?.reasons ?? []).filter((reason) => reason.recommendations.includes(recommendation));
  useEffect(() => {
    if (!reasonFocus.pending || offered.length === 0) return;
    reasonFocus.pending = false;
    byId("case-reasons")?.querySelector<HTMLInputElement>("input[type=checkbox]")?.focus();
  }, [recommendation, offered.length]);
  function choose(value: Recommendation) {
    setRecommendation(value);
    // A reason of another recommendation never travels with this one.
    setChosen((list) => list.filter((code) => (REASONS_BY_RECOMMENDATION[value] as readonly string[]).includes(code)));
    setProblems([]);
  }
  function submit(event: FormEvent) {
    event.preventDefault();
    const found = outcomeProblems({ recommendation, reasons: chosen, comment });
    setProblems(found);
    if (found.length > 0) return;
    leaveForm("case-outcome-form"); // the next key is a shortcut, never typed into the comment (issue 32)
    record.mutate({ recommendation, reasons: chosen as ReasonCode[], comment });
  }
  const fieldError = (field: "reasons" | "comment") => {
    const problem = problems.find((item) => item.field === field);
    if (problem) return t(`problems.${problem.code}`);
    return record.error?.fields.includes(field) ? record.error.message : null;
  };
  const commentRequired = recommendation === "reprove";
  return (
    <form id="case-outcome-form" onSubmit={submit} className="space-y-2" aria-label={t("title")}>
      <fieldset aria-describedby="case-outcome-needs-confirmation">
        <legend className="text-sm font-medium text-slate-800">{t("recommendation")}</legend>
        <div className="mt-1 flex flex-wrap gap-4">
          {RECOMMENDATIONS.map((value) => (
            <label key={value} className="flex items-center gap-1 text-sm">
              <input
                id={`case-rec-${value}`}
                type="radio"
                name="recommendation"
                value={value}
                checked={recommendation === value}
                onChange={() => choose(value)}
              />
              {tr(value)}
            </label>
          ))}
        </div>
      </fieldset>
      <TemplatePicker
        publicId={publicId}
        kind={recommendation}
        reasons={chosen}
        comment={comment}
        setReasons={setChosen}
        setComment={setComment}
      />
      <fieldset aria-describedby="case-reasons-hint">
        <legend className="text-sm font-medium text-slate-800">{t("reasons")}</legend>
        <p id="case-reasons-hint" className="text-xs text-slate-600">
          {t("reasonsHint")}
        </p>
        <div id="case-reasons" className="mt-1 grid grid-cols-1 gap-1 sm:grid-cols-2">
          {offered.map((reason, index) => (
            <label key={reason.code} className="flex items-center gap-2 text-sm">
              <input
                type="checkbox"
                value={reason.code}
                checked={chosen.includes(reason.code)}
                onChange={(event) =>
                  setChosen((list) => (event.target.checked ? [...list, reason.code] : list.filter((code) => code !== reason.code)))
                }
              />
              {index < 9 ? (
                <kbd aria-hidden="true" className="rounded border border-slate-300 px-1 font-mono text-xs text-slate-600">
                  {index + 1}
                </kbd>
              ) : null}
              {reason.label}
            </label>
          ))}
        </div>
        {fieldError("reasons") ? (
          <p id="case-reasons-error" className="text-sm text-red-800">
            {fieldError("reasons")}
          </p>
        ) : null}
      </fieldset>
      <TextBox
        id="case-outcome-comment"
        label={commentRequired ? t("commentRequired") : t("comment")}
        value={comment}
        aria-required={commentRequired || undefined}
        aria-invalid={fieldError("comment") ? true : undefined}
        aria-describedby={fieldError("comment") ? "case-comment-error" : undefined}
        onChange={(event) => setComment(event.target.value)}
      />
      {fieldError("comment") ? (
        <p id="case-comment-error" className="text-sm text-red-800">
          {fieldError("comment")}
        </p>
      ) : null}
      {record.error && !fieldError("reasons") && !fieldError("comment") ? <ErrorLine error={record.error} /> : null}
      {record.isSuccess ? <p role="status">{t("recorded")}</p> : null}
      <Button type="submit" pending={record.isPending}>
        {t("submit")}
      </Button>
      <p id="case-outcome-needs-confirmation" className="text-xs text-slate-600">
        {t("needsConfirmation")}
      </p>
    </form>
  );
}
