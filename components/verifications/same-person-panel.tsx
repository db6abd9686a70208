"use client";

import { useTranslations } from "next-intl";
import type { ReactNode } from "react";

import { StateBadge } from "@/components/cases/case-badges";
import { AppLink as Link } from "@/components/ui/app-link";
import { Button } from "@/components/ui/button";
import { useDateTime } from "@/components/ui/use-formatters";
import { useRelatedVerifications } from "@/lib/verifications/hooks";
import type { RelatedVerification } from "@/lib/verifications/types";

import { NoticeLine } from "./notice-line";
import { StatusBadge } from "./status-badge";

/** Where the index learns a CPF: the search's own list (cases.search.miss.sources). */
const SOURCES = ["created_here", "unmasked_read", "event"] as const;

/** The panel on one line: its heading and what is (not) known, beside it. */
function PanelLine({ children }: { children: ReactNode }) {
  const t = useTranslations("cases.samePerson");
  return (
    <section
      aria-labelledby="same-person-heading"
      className="flex min-w-0 flex-wrap items-center gap-x-3 gap-y-1 rounded-lg border border-slate-200 bg-white px-3 py-1 text-sm"
      data-testid="same-person"
    >
      <h2 id="same-person-heading" className="font-semibold">
        {t("title")}
      </h2>
      {children}
    </section>
  );
}

/** The other verifications, each with its status, its case's outcome, its date and a link keeping the page's context. */
function RelatedList({ items, context }: { items: RelatedVerification[]; context: string }) {
  const t = useTranslations("cases.samePerson");
  const tr = useTranslations("cases.recommendation");
  const dateTime = useDateTime();
  const href = (id: string) => `/verifications/${encodeURIComponent(id)}${context ? `?${context}` : ""}`;
  return (
    <ul className="divide-y divide-slate-100" data-testid="same-person-list">
      {items.map((item) => (
        <li key={item.publicId} className="py-2 text-sm">
          <Link href={href(item.publicId)} className="font-mono break-all text-brand-800 underline underline-offset-2">
            {t("open", { publicId: item.publicId })}
          </Link>
          <dl className="mt-1 grid grid-cols-[auto_1fr] gap-x-3 gap-y-1">
            <dt className="text-slate-600">{t("status")}</dt>
            <dd>{item.status ? <StatusBadge status={item.status} /> : <span className="text-slate-600">{t("noStatus")}</span>}</dd>
            {item.caseStatus ? (
              <>
                <dt className="text-slate-600">{t("case")}</dt>
                <dd>
                  <StateBadge
                    status={item.caseStatus}
                    outcomeState={item.outcome?.state ?? null}
                    recommendation={item.outcome?.recommendation ?? null}
                  />
                </dd>
              </>
            ) : null}
            {item.outcome ? (
              <>
                <dt className="text-slate-600">{t("outcome")}</dt>
                <dd>{tr(item.outcome.recommendation)}</dd>
              </>
            ) : null}
            <dt className="text-slate-600">{t("date")}</dt>
            <dd>{item.createdAt ? <time dateTime={item.createdAt}>{dateTime(item.createdAt)}</time> : "—"}</dd>
          </dl>
        </li>
      ))}
    </ul>
  );
}

/**
 * "Same person": the other verifications of this verification's CPF, by its keyed hash in the dashboard's
 * index, each with its status, its case's outcome, its date and a link that keeps the page's list and queue
 * context (`context`: the page's own `list=` / `cases=` parameters). With no CPF known for this verification,
 * it says why nothing can be shown, in the search's words. Whatever is not a list (loading, a failure, no CPF
 * known, nobody else) takes one line: on the case page it follows the evidence, which it must not push down.
 */
export function SamePersonPanel({ publicId, context = "", enabled = true }: { publicId: string; context?: string; enabled?: boolean }) {
  const t = useTranslations("cases.samePerson");
  const ts = useTranslations("cases.search.miss.sources");
  const query = useRelatedVerifications(publicId, { enabled });

  if (query.isError)
    return (
      <PanelLine>
        <p className="text-red-700">{t("error")}</p>
        <Button variant="secondary" className="py-0.5" pending={query.isFetching} onClick={() => void query.refetch()}>
          {t("retry")}
        </Button>
      </PanelLine>
    );
  if (!query.data)
    return (
      <PanelLine>
        <p className="text-slate-600" role="status">
          {t("loading")}
        </p>
      </PanelLine>
    );
  if (query.data.basis === "unknown")
    return (
      <PanelLine>
        <NoticeLine mark="?" title={t("unknownShort")} className="flex-1" data-testid="same-person-unknown">
          <p>{t("unknown")}</p>
          <ul className="mt-1 list-disc pl-5">
            {SOURCES.map((source) => (
              <li key={source}>{ts(source)}</li>
            ))}
          </ul>
        </NoticeLine>
      </PanelLine>
    );
  if (query.data.related.length === 0)
    return (
      <PanelLine>
        <p className="text-slate-600">{t("none")}</p>
      </PanelLine>
    );
  return (
    <section aria-labelledby="same-person-heading" className="rounded-lg border border-slate-200 bg-white p-4" data-testid="same-person">
      <h2 id="same-person-heading" className="text-lg font-semibold">
        {t("title")}
      </h2>
      <p className="mt-1 text-xs text-slate-600">{t("intro")}</p>
      <div className="mt-2">
        <RelatedList items={query.data.related} context={context} />
      </div>
    </section>
  );
}
