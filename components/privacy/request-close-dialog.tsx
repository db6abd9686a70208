"use client";

import { useTranslations } from "next-intl";
import { useId, useState, type FormEvent, type ReactNode } from "react";

import { Alert } from "@/components/ui/alert";
import { Dialog } from "@/components/ui/dialog";
import { DialogFormActions } from "@/components/ui/dialog-form-actions";
import { focusFirstProblem } from "@/components/ui/focus-first-problem";
import { useRefreshingRequest } from "@/components/ui/use-refreshing-request";
import { postPrivacyRequestClose } from "@/lib/privacy/browser-requests";
import {
  answerProblem,
  MAX_ANSWER_LENGTH,
  REQUEST_ANSWERS,
  type PrivacyRequestDto,
  type RequestAnswer,
  type TextProblem,
} from "@/lib/privacy/requests";
import { refusalOf } from "@/lib/shared/api-client/api-request";

/*
 * Closing a titular request (./request-queue.tsx): what was sent (the titular report, an erasure, or a written answer
 * alone) and the written answer; a 409 says the request was closed already, or the report or erasure it names was not
 * made for the person since the request was received.
 */

/** A labelled native select (the request's kind, channel, and what was sent). */
export function Select({
  id,
  label,
  value,
  onChange,
  children,
}: {
  id: string;
  label: string;
  value: string;
  onChange: (value: string) => void;
  children: ReactNode;
}) {
  return (
    <div>
      <label htmlFor={id} className="block text-sm font-medium text-slate-800">
        {label}
      </label>
      <select
        id={id}
        value={value}
        onChange={(event) => onChange(event.target.value)}
        className="mt-1 block w-full rounded-md border border-slate-300 px-3 py-2 text-sm shadow-sm focus:border-brand-600"
      >
        {children}
      </select>
    </div>
  );
}

/** What the dialog needs of the request being closed. */
export type ClosingRequest = Pick<PrivacyRequestDto, "id" | "documentMasked" | "kind">;

export function CloseDialog({ request, onDone }: { request: ClosingRequest; onDone: () => void }) {
  const t = useTranslations("privacy.requests");
  const close = useRefreshingRequest(postPrivacyRequestClose);
  const id = useId();
  const [sent, setSent] = useState<RequestAnswer>(
    request.kind === "erasure" ? "erasure" : request.kind === "access" ? "report" : "written",
  );
  const [answer, setAnswer] = useState("");
  const [answerError, setAnswerError] = useState<TextProblem | "server" | undefined>();
  const answerId = `${id}-answer`;

  function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (close.isPending) return;
    const problem = answerProblem(answer);
    setAnswerError(problem);
    if (focusFirstProblem({ [answerId]: problem })) return;
    close.mutate(
      { id: request.id, answer: answer.trim(), sent },
      {
        onSuccess: onDone,
        onError: (error) => {
          const refusal = refusalOf(error);
          if (refusal?.code === "validation" && refusal.fields.includes("answer")) setAnswerError("server");
        },
      },
    );
  }

  const refusal = refusalOf(close.error);
  const failed = close.error && refusal?.code !== "validation";
  const errorKey = refusal?.code === "conflict" || refusal?.code === "not_found" ? refusal.code : "unknown";
  return (
    <Dialog
      open
      onOpenChange={(open) => (open || close.isPending ? undefined : onDone())}
      title={t("closeDialog.title", { document: request.documentMasked })}
      description={t("closeDialog.body")}
    >
      <form noValidate onSubmit={submit} className="space-y-4">
        <Select id={`${id}-sent`} label={t("closeDialog.sent")} value={sent} onChange={(value) => setSent(value as RequestAnswer)}>
          {REQUEST_ANSWERS.map((value) => (
            <option key={value} value={value}>
              {t(`sent.${value}`)}
            </option>
          ))}
        </Select>
        <div>
          <label htmlFor={answerId} className="block text-sm font-medium text-slate-800">
            {t("closeDialog.answer")}
          </label>
          <textarea
            id={answerId}
            rows={4}
            maxLength={MAX_ANSWER_LENGTH + 100}
            value={answer}
            disabled={close.isPending}
            aria-invalid={answerError ? true : undefined}
            aria-describedby={[`${answerId}-hint`, answerError ? `${answerId}-error` : null].filter(Boolean).join(" ")}
            onChange={(event) => {
              setAnswer(event.target.value);
              setAnswerError(undefined);
            }}
            className={`mt-1 block w-full rounded-md border px-3 py-2 text-sm shadow-sm ${answerError ? "border-red-600" : "border-slate-300"} focus:border-brand-600`}
          />
          <p id={`${answerId}-hint`} className="mt-1 text-xs text-slate-600">
            {t("closeDialog.answerHint")}
          </p>
          {answerError ? (
            <p id={`${answerId}-error`} className="mt-1 text-sm text-red-700">
              {t(`problems.answer.${answerError}`, { max: MAX_ANSWER_LENGTH })}
            </p>
          ) : null}
        </div>
        <div aria-live="assertive">{failed ? <Alert tone="error">{t(`errors.${errorKey}`)}</Alert> : null}</div>
        <DialogFormActions
          cancelLabel={t("closeDialog.back")}
          submitLabel={t("closeDialog.submit")}
          pending={close.isPending}
          cancelDisabled={close.isPending}
        />
      </form>
    </Dialog>
  );
}
