import { useFormatter, useTranslations } from "next-intl";

import { Badge } from "@/components/ui/badge";
import { TitledSection } from "@/components/ui/titled-section";
import type { PrivacyRequestDto, PrivacyRequestListResponse } from "@/lib/privacy/requests";
import { DATE_TIME_FORMAT } from "@/lib/shared/date-format";

import { CloseRequestButton, RequestCloseActions } from "./request-close-actions";
import { RegisterForm } from "./request-register-form";

/*
 * Titular requests on /admin/privacy (messages: `privacy.requests`), drawn on the server from the page's list: register
 * one (./request-register-form.tsx, the CPF in the body only), the open ones by days left, late first (the server's
 * order), each answered with the titular report or an erasure (links to their sections on this page) or a written
 * answer, and closed with what was sent (./request-close-actions.tsx); then the latest closed ones. The page shows none
 * of it to a member without `privacy.requests`; registering and closing have the page drawn again.
 */

const REPORT_SECTION = "#titular-heading";
const ERASURE_SECTION = "#erasure-heading";

export function PrivacyRequestsPanel({ data, mayErase }: { data: PrivacyRequestListResponse; mayErase: boolean }) {
  const t = useTranslations("privacy.requests");
  return (
    <TitledSection
      id="requests-heading"
      title={t("heading")}
      lead={t("lead", { days: data.dueDays })}
      leadClassName="max-w-3xl text-slate-600"
      className="space-y-6"
    >
      <RegisterForm />
      <RequestCloseActions>
        <OpenList items={data.open} mayErase={mayErase} />
      </RequestCloseActions>
      <ClosedList items={data.closed} />
    </TitledSection>
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
  const when = (iso: string) => format.dateTime(new Date(iso), DATE_TIME_FORMAT);
  return (
    <section aria-labelledby="requests-open-heading" className="space-y-3">
      <h3 id="requests-open-heading" className="text-base font-semibold text-slate-900">
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
                <CloseRequestButton request={{ id: request.id, documentMasked: request.documentMasked, kind: request.kind }} />
              </div>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}

function ClosedList({ items }: { items: PrivacyRequestDto[] }) {
  const t = useTranslations("privacy.requests");
  const format = useFormatter();
  return (
    <section aria-labelledby="requests-closed-heading" className="space-y-3">
      <h3 id="requests-closed-heading" className="text-base font-semibold text-slate-900">
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
