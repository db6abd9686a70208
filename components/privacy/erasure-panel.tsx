import { useFormatter, useTranslations } from "next-intl";
import type { ReactNode } from "react";

import { TitledSection } from "@/components/ui/titled-section";
import type { ErasureDto, ErasureListResponse } from "@/lib/privacy/erasure";
import { DATE_TIME_FORMAT } from "@/lib/shared/date-format";

import { DecideErasureButtons, ErasureDecisions } from "./erasure-decisions";
import { ErasureRequestForm } from "./erasure-request-form";
import { ResultLists } from "./erasure-result";

/*
 * Erasure requests on /admin/privacy (messages: the `erasure` namespace), drawn on the server from the page's lists.
 * One member asks (./erasure-request-form.tsx: CPF and reason), another confirms from the pending list
 * (./erasure-decisions.tsx); the requester sees why their own Confirm is disabled. Asking and confirming need a fresh
 * second factor: the step-up dialog opens by itself (components/auth/step-up-dialog.tsx). The page shows none of it to a
 * member without `privacy.erase`; asking and deciding have the page drawn again (the outcome and a confirmed erasure's
 * result stay shown meanwhile).
 */
export function ErasurePanel({ data }: { data: ErasureListResponse }) {
  const t = useTranslations("erasure");
  return (
    <TitledSection
      id="erasure-heading"
      title={t("heading")}
      lead={t("intro")}
      leadClassName="max-w-3xl text-slate-600"
      className="space-y-6"
    >
      <ErasureRequestForm />
      <ErasureDecisions>
        <PendingList items={data.pending} />
      </ErasureDecisions>
      <RecentList items={data.recent} />
    </TitledSection>
  );
}

/** One of the panel's lists, pending or recent: its heading, then the sentence that says it is empty or the list. */
function ErasureList({
  kind,
  items,
  renderItem,
  children,
}: {
  kind: "pending" | "recent";
  items: ErasureDto[];
  renderItem: (erasure: ErasureDto) => ReactNode;
  children?: ReactNode;
}) {
  const t = useTranslations("erasure");
  return (
    <section aria-labelledby={`erasure-${kind}-heading`} className="space-y-3">
      <h3 id={`erasure-${kind}-heading`} className="text-base font-semibold text-slate-900">
        {t(`${kind}.heading`)}
      </h3>
      {items.length === 0 ? (
        <p className="text-sm text-slate-600">{t(`${kind}.empty`)}</p>
      ) : (
        <ul aria-label={t(`${kind}.listLabel`)} className="divide-y divide-slate-200 rounded-lg border border-slate-200 bg-white">
          {items.map(renderItem)}
        </ul>
      )}
      {children}
    </section>
  );
}

function PendingList({ items }: { items: ErasureDto[] }) {
  const t = useTranslations("erasure");
  const format = useFormatter();
  const when = (iso: string) => format.dateTime(new Date(iso), DATE_TIME_FORMAT);
  return (
    <ErasureList
      kind="pending"
      items={items}
      renderItem={(erasure) => (
        <li key={erasure.id} className="space-y-3 p-4" data-testid="erasure-pending">
          <dl className="grid grid-cols-[auto_1fr] gap-x-3 gap-y-1 text-sm text-slate-700">
            <dt className="text-slate-500">{t("pending.document")}</dt>
            <dd className="font-mono">{erasure.documentMasked}</dd>
            <dt className="text-slate-500">{t("pending.reason")}</dt>
            <dd className="break-words whitespace-pre-line">{erasure.reason}</dd>
            <dt className="text-slate-500">{t("pending.requestedBy")}</dt>
            <dd className="break-all">{erasure.requestedBy.name || erasure.requestedBy.email}</dd>
            <dt className="text-slate-500">{t("pending.requestedAt")}</dt>
            <dd>{when(erasure.requestedAt)}</dd>
          </dl>
          <DecideErasureButtons
            erasure={{ id: erasure.id, documentMasked: erasure.documentMasked, ownRequest: erasure.ownRequest }}
            ownRequestNote={`erasure-${erasure.id}-own`}
          />
          {erasure.ownRequest ? (
            <p id={`erasure-${erasure.id}-own`} className="text-sm text-slate-600">
              {t("pending.ownRequest")}
            </p>
          ) : null}
        </li>
      )}
    />
  );
}

function RecentList({ items }: { items: ErasureDto[] }) {
  const t = useTranslations("erasure");
  const format = useFormatter();
  return (
    <ErasureList
      kind="recent"
      items={items}
      renderItem={(erasure) => (
        <li key={erasure.id} className="space-y-2 p-4 text-sm text-slate-700" data-testid="erasure-recent">
          <p>
            <span className="font-mono text-slate-900">{erasure.documentMasked}</span>
            {" — "}
            {t("recent.decided", {
              state: t(`recent.state.${erasure.state === "confirmed" ? "confirmed" : "cancelled"}`),
              name: erasure.decidedBy?.name || erasure.decidedBy?.email || "—",
              date: erasure.decidedAt ? format.dateTime(new Date(erasure.decidedAt), DATE_TIME_FORMAT) : "—",
            })}
          </p>
          <p className="break-words whitespace-pre-line text-slate-600">{erasure.reason}</p>
          {erasure.result ? (
            <details>
              <summary className="cursor-pointer font-medium text-brand-700">{t("recent.showResult")}</summary>
              <div className="mt-2">
                <ResultLists result={erasure.result} />
              </div>
            </details>
          ) : null}
        </li>
      )}
    />
  );
}
