"use client";

import { useTranslations } from "next-intl";
import { useId, useState, type FormEvent } from "react";

import { Alert } from "@/components/ui/alert";
import { Dialog } from "@/components/ui/dialog";
import { DialogFormActions } from "@/components/ui/dialog-form-actions";
import { SelectField, TextAreaField } from "@/components/ui/field";
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
        <SelectField
          id={`${id}-sent`}
          label={t("closeDialog.sent")}
          value={sent}
          onChange={(event) => setSent(event.target.value as RequestAnswer)}
        >
          {REQUEST_ANSWERS.map((value) => (
            <option key={value} value={value}>
              {t(`sent.${value}`)}
            </option>
          ))}
        </SelectField>
        <TextAreaField
          id={answerId}
          label={t("closeDialog.answer")}
          hint={t("closeDialog.answerHint")}
          error={answerError ? t(`problems.answer.${answerError}`, { max: MAX_ANSWER_LENGTH }) : undefined}
          rows={4}
          maxLength={MAX_ANSWER_LENGTH + 100}
          value={answer}
          disabled={close.isPending}
          onChange={(event) => {
            setAnswer(event.target.value);
            setAnswerError(undefined);
          }}
        />
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
