"use client";

import { useFormatter, useTranslations } from "next-intl";
import { useId, useState, type FormEvent } from "react";

import { Alert, SuccessNotice } from "@/components/ui/alert";
import { Badge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { CpfField, type CpfFieldProblem } from "@/components/ui/cpf-field";
import { Field } from "@/components/ui/field";
import { focusFirstProblem } from "@/components/ui/focus-first-problem";
import { TitledSection } from "@/components/ui/titled-section";
import { useRefreshingRequest } from "@/components/ui/use-refreshing-request";
import { postPrivacyRequest } from "@/lib/privacy/browser-requests";
import {
  contactProblem,
  MAX_CONTACT_LENGTH,
  REQUEST_CHANNELS,
  REQUEST_KINDS,
  type PrivacyRequestDto,
  type PrivacyRequestListResponse,
  type RequestChannel,
  type RequestKind,
  type TextProblem,
} from "@/lib/privacy/requests";
import { refusalOf } from "@/lib/shared/api-client/api-request";
import { cpfProblem } from "@/lib/shared/cpf";
import { DATE_TIME_FORMAT } from "@/lib/shared/date-format";

import { CloseDialog, Select } from "./request-close-dialog";

/*
 * Titular requests on /admin/privacy (messages: `privacy.requests`): register one (the CPF in the body only), the
 * open ones by days left, late first (the server's order), each answered with the titular report or an erasure (links
 * to their sections on this page) or a written answer, and closed with what was sent; then the latest closed ones.
 * The page draws the lists on the server and shows none of it to a member without `privacy.requests`; registering and
 * closing have the page drawn again.
 */

const REPORT_SECTION = "#titular-heading";
const ERASURE_SECTION = "#erasure-heading";

/** The browser's local date and time now, as a datetime-local input holds it ("2026-11-30T08:45"). */
function localNow(): string {
  const now = new Date();
  return new Date(now.getTime() - now.getTimezoneOffset() * 60_000).toISOString().slice(0, 16);
}

export function PrivacyRequestsPanel({ data, mayErase }: { data: PrivacyRequestListResponse; mayErase: boolean }) {
  const t = useTranslations("privacy.requests");
  const format = useFormatter();
  const [notice, setNotice] = useState<string | null>(null);

  return (
    <TitledSection
      id="requests-heading"
      title={t("heading")}
      lead={t("lead", { days: data.dueDays })}
      leadClassName="max-w-3xl text-slate-600"
      className="space-y-6"
    >
      <RegisterForm
        onRegistered={(request) =>
          setNotice(t("form.sent", { document: request.documentMasked, due: format.dateTime(new Date(request.dueAt), DATE_TIME_FORMAT) }))
        }
      />
      <SuccessNotice>{notice}</SuccessNotice>
      <OpenList items={data.open} mayErase={mayErase} />
      <ClosedList items={data.closed} />
    </TitledSection>
  );
}

type ReceivedProblem = "required" | "future" | "server";

function RegisterForm({ onRegistered }: { onRegistered: (request: PrivacyRequestDto) => void }) {
  const t = useTranslations("privacy.requests");
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
    register.mutate(body, {
      onSuccess: ({ request }) => {
        setCpf("");
        setContact("");
        setReceivedAt(localNow());
        onRegistered(request);
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
    <form
      noValidate
      onSubmit={submit}
      aria-labelledby={`${id}-title`}
      className="space-y-4 rounded-xl border border-slate-200 bg-white p-5 shadow-sm"
    >
      <h3 id={`${id}-title`} className="text-base font-semibold text-slate-900">
        {t("form.heading")}
      </h3>
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
        <Select id={`${id}-kind`} label={t("form.kind")} value={kind} onChange={(value) => setKind(value as RequestKind)}>
          {REQUEST_KINDS.map((value) => (
            <option key={value} value={value}>
              {t(`kinds.${value}`)}
            </option>
          ))}
        </Select>
        <Select id={`${id}-channel`} label={t("form.channel")} value={channel} onChange={(value) => setChannel(value as RequestChannel)}>
          {REQUEST_CHANNELS.map((value) => (
            <option key={value} value={value}>
              {t(`channels.${value}`)}
            </option>
          ))}
        </Select>
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
    </form>
  );
}

/** Days left as a badge: late in red, three days or fewer in amber. Text always says it, never the colour alone. */
function DaysLeft({ request }: { request: PrivacyRequestDto }) {
  const t = useTranslations("privacy.requests.open");
  if (request.late) return <Badge tone="danger">{t("late", { days: Math.max(0, -request.daysLeft) })}</Badge>;
  return <Badge tone={request.daysLeft <= 3 ? "warning" : "neutral"}>{t("left", { days: request.daysLeft })}</Badge>;
}

function OpenList({ items, mayErase }: { items: PrivacyRequestDto[]; mayErase: boolean }) {
  const t = useTranslations("privacy.requests");
  const format = useFormatter();
  const id = useId();
  const [closing, setClosing] = useState<PrivacyRequestDto | null>(null);
  const when = (iso: string) => format.dateTime(new Date(iso), DATE_TIME_FORMAT);
  return (
    <section aria-labelledby={`${id}-heading`} className="space-y-3">
      <h3 id={`${id}-heading`} className="text-base font-semibold text-slate-900">
        {t("open.heading")}
      </h3>
      {items.length === 0 ? (
        <p className="text-sm text-slate-600">{t("open.empty")}</p>
      ) : (
        <ul aria-label={t("open.listLabel")} className="divide-y divide-slate-200 rounded-lg border border-slate-200 bg-white">
          {items.map((request) => (
            <li key={request.id} className="space-y-3 p-4" data-testid="privacy-request-open">
              <div className="flex flex-wrap items-center gap-2">
                <span className="font-mono text-slate-900">{request.documentMasked}</span>
                <DaysLeft request={request} />
              </div>
              <dl className="grid grid-cols-[auto_1fr] gap-x-3 gap-y-1 text-sm text-slate-700">
                <dt className="text-slate-500">{t("open.kind")}</dt>
                <dd>{t(`kinds.${request.kind}`)}</dd>
                <dt className="text-slate-500">{t("open.channel")}</dt>
                <dd>{t(`channels.${request.channel}`)}</dd>
                <dt className="text-slate-500">{t("open.receivedAt")}</dt>
                <dd>{when(request.receivedAt)}</dd>
                <dt className="text-slate-500">{t("open.dueAt")}</dt>
                <dd>{when(request.dueAt)}</dd>
                {request.contact ? (
                  <>
                    <dt className="text-slate-500">{t("open.contact")}</dt>
                    <dd className="break-all">
                      {request.contactMasked ? t("open.contactMasked", { contact: request.contact }) : request.contact}
                    </dd>
                  </>
                ) : null}
                <dt className="text-slate-500">{t("open.openedBy")}</dt>
                <dd className="break-all">{request.openedBy.name || request.openedBy.email}</dd>
              </dl>
              {request.lateNotifiedAt ? (
                <p className="text-sm text-slate-600">{t("open.notified", { at: when(request.lateNotifiedAt) })}</p>
              ) : null}
              <div className="flex flex-wrap items-center gap-3 text-sm">
                <a href={REPORT_SECTION} className="font-medium text-brand-700 underline">
                  {t("open.report")}
                </a>
                {mayErase ? (
                  <a href={ERASURE_SECTION} className="font-medium text-brand-700 underline">
                    {t("open.erasure")}
                  </a>
                ) : null}
                <Button
                  variant="secondary"
                  aria-label={t("open.closeLabel", { document: request.documentMasked })}
                  onClick={() => setClosing(request)}
                >
                  {t("open.close")}
                </Button>
              </div>
            </li>
          ))}
        </ul>
      )}
      {closing ? <CloseDialog request={closing} onDone={() => setClosing(null)} /> : null}
    </section>
  );
}

function ClosedList({ items }: { items: PrivacyRequestDto[] }) {
  const t = useTranslations("privacy.requests");
  const format = useFormatter();
  const id = useId();
  return (
    <section aria-labelledby={`${id}-heading`} className="space-y-3">
      <h3 id={`${id}-heading`} className="text-base font-semibold text-slate-900">
        {t("closed.heading")}
      </h3>
      {items.length === 0 ? (
        <p className="text-sm text-slate-600">{t("closed.empty")}</p>
      ) : (
        <ul aria-label={t("closed.listLabel")} className="divide-y divide-slate-200 rounded-lg border border-slate-200 bg-white">
          {items.map((request) => (
            <li key={request.id} className="space-y-2 p-4 text-sm text-slate-700" data-testid="privacy-request-closed">
              <p>
                <span className="font-mono text-slate-900">{request.documentMasked}</span>
                {" — "}
                {t("closed.summary", {
                  kind: t(`kinds.${request.kind}`),
                  date: request.closedAt ? format.dateTime(new Date(request.closedAt), DATE_TIME_FORMAT) : "—",
                  name: request.closedBy?.name || request.closedBy?.email || "—",
                  sent: request.sent ? t(`sent.${request.sent}`) : "—",
                })}{" "}
                {request.late ? t("closed.wasLate") : t("closed.onTime")}
              </p>
              {request.answer ? (
                <details>
                  <summary className="cursor-pointer font-medium text-brand-700">{t("closed.showAnswer")}</summary>
                  <p className="mt-2 break-words whitespace-pre-line">{request.answer}</p>
                </details>
              ) : null}
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
