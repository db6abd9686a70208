"use client";

import { useFormatter, useTranslations } from "next-intl";
import { useId, useState, type FormEvent } from "react";

import { Alert, SuccessNotice } from "@/components/ui/alert";
import { Button } from "@/components/ui/button";
import { CpfField, type CpfFieldProblem } from "@/components/ui/cpf-field";
import { Field, SelectField, TitledForm } from "@/components/ui/field";
import { focusFirstProblem } from "@/components/ui/focus-first-problem";
import { useRefreshingRequest } from "@/components/ui/use-refreshing-request";
import { postPrivacyRequest } from "@/lib/privacy/browser-requests";
import {
  contactProblem,
  MAX_CONTACT_LENGTH,
  REQUEST_CHANNELS,
  REQUEST_KINDS,
  type RequestChannel,
  type RequestKind,
  type TextProblem,
} from "@/lib/privacy/requests";
import { refusalOf } from "@/lib/shared/api-client/api-request";
import { cpfProblem } from "@/lib/shared/cpf";
import { DATE_TIME_FORMAT } from "@/lib/shared/date-format";

/*
 * Registering a titular request (./request-queue.tsx): the CPF (checked here first, sent in the body only), what the
 * person asks, how and when it arrived, and a contact; the date may not be in the future. Once registered, the page is
 * drawn again with the request in the open list, and the notice here says when it is due.
 */

/** The browser's local date and time now, as a datetime-local input holds it ("2026-11-30T08:45"). */
function localNow(): string {
  const now = new Date();
  return new Date(now.getTime() - now.getTimezoneOffset() * 60_000).toISOString().slice(0, 16);
}

type ReceivedProblem = "required" | "future" | "server";

export function RegisterForm() {
  const t = useTranslations("privacy.requests");
  const format = useFormatter();
  const [notice, setNotice] = useState<string | null>(null);
  const register = useRefreshingRequest(postPrivacyRequest);
  const id = useId();
  const [cpf, setCpf] = useState("");
  const [kind, setKind] = useState<RequestKind>("access");
  const [channel, setChannel] = useState<RequestChannel>("email");
  const [receivedAt, setReceivedAt] = useState(localNow);
  const [contact, setContact] = useState("");
  const [cpfError, setCpfError] = useState<CpfFieldProblem | undefined>();
  const [receivedError, setReceivedError] = useState<ReceivedProblem | undefined>();
  const [contactError, setContactError] = useState<Exclude<TextProblem, "required"> | "server" | undefined>();

  function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (register.isPending) return;
    const received = receivedAt ? new Date(receivedAt) : null;
    const issues = {
      cpf: cpfProblem(cpf),
      receivedAt:
        !received || Number.isNaN(received.getTime()) ? ("required" as const) : received > new Date() ? ("future" as const) : undefined,
      contact: contactProblem(contact),
    };
    setCpfError(issues.cpf);
    setReceivedError(issues.receivedAt);
    setContactError(issues.contact);
    if (focusFirstProblem({ [`${id}-cpf`]: issues.cpf, [`${id}-received`]: issues.receivedAt, [`${id}-contact`]: issues.contact })) return;
    const body = { cpf, kind, channel, receivedAt: received!.toISOString(), ...(contact.trim() ? { contact: contact.trim() } : {}) };
    setNotice(null);
    register.mutate(body, {
      onSuccess: ({ request }) => {
        setCpf("");
        setContact("");
        setReceivedAt(localNow());
        setNotice(t("form.sent", { document: request.documentMasked, due: format.dateTime(new Date(request.dueAt), DATE_TIME_FORMAT) }));
      },
      onError: (error) => {
        const refusal = refusalOf(error);
        if (refusal?.code !== "validation") return;
        if (refusal.fields.includes("cpf")) setCpfError("server");
        if (refusal.fields.includes("receivedAt")) setReceivedError("server");
        if (refusal.fields.includes("contact")) setContactError("server");
      },
    });
  }

  const failed = register.error && refusalOf(register.error)?.code !== "validation";
  return (
    <>
      <TitledForm id={`${id}-title`} title={t("form.heading")} onSubmit={submit}>
        <CpfField
          id={`${id}-cpf`}
          label={t("form.cpf")}
          hint={t("form.cpfHint")}
          problem={cpfError}
          messages={(problem) => t(`problems.cpf.${problem}`)}
          value={cpf}
          onValueChange={(value) => {
            setCpf(value);
            setCpfError(undefined);
          }}
          disabled={register.isPending}
        />
        <div className="grid max-w-2xl gap-4 sm:grid-cols-2">
          <SelectField
            id={`${id}-kind`}
            label={t("form.kind")}
            value={kind}
            onChange={(event) => setKind(event.target.value as RequestKind)}
          >
            {REQUEST_KINDS.map((value) => (
              <option key={value} value={value}>
                {t(`kinds.${value}`)}
              </option>
            ))}
          </SelectField>
          <SelectField
            id={`${id}-channel`}
            label={t("form.channel")}
            value={channel}
            onChange={(event) => setChannel(event.target.value as RequestChannel)}
          >
            {REQUEST_CHANNELS.map((value) => (
              <option key={value} value={value}>
                {t(`channels.${value}`)}
              </option>
            ))}
          </SelectField>
          <Field
            id={`${id}-received`}
            type="datetime-local"
            label={t("form.receivedAt")}
            hint={t("form.receivedAtHint")}
            value={receivedAt}
            max={localNow()}
            error={receivedError ? t(`problems.receivedAt.${receivedError}`) : undefined}
            disabled={register.isPending}
            onChange={(event) => {
              setReceivedAt(event.target.value);
              setReceivedError(undefined);
            }}
          />
          <Field
            id={`${id}-contact`}
            label={t("form.contact")}
            hint={t("form.contactHint")}
            value={contact}
            maxLength={MAX_CONTACT_LENGTH + 50}
            autoComplete="off"
            error={contactError ? t(`problems.contact.${contactError}`, { max: MAX_CONTACT_LENGTH }) : undefined}
            disabled={register.isPending}
            onChange={(event) => {
              setContact(event.target.value);
              setContactError(undefined);
            }}
          />
        </div>
        <div aria-live="assertive">{failed ? <Alert tone="error">{t("errors.unknown")}</Alert> : null}</div>
        <Button type="submit" pending={register.isPending}>
          {t("form.submit")}
        </Button>
      </TitledForm>
      <SuccessNotice>{notice}</SuccessNotice>
    </>
  );
}
