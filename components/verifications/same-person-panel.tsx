"use client";

import { useTranslations } from "next-intl";
import Link from "next/link";

import { StateBadge } from "@/components/cases/case-badges";
import { Button } from "@/components/ui/button";
import { useDateTime } from "@/components/ui/use-formatters";
import { useRelatedVerifications } from "@/lib/verifications/hooks";

import { StatusBadge } from "./status-badge";

/** Where the index learns a CPF: the search's own list (cases.search.miss.sources). */
const SOURCES = ["created_here", "unmasked_read", "event"] as const;

/**
 * "Same person": the other verifications of this verification's CPF, by its keyed hash in the dashboard's
 * index, each with its status, its case's outcome, its date and a link that keeps the page's list and queue
 * context (`context`: the page's own `list=` / `cases=` parameters). With no CPF known for this verification,
 * it says why nothing can be shown, in the search's words.
 */
export function SamePersonPanel({ publicId, context = "", enabled = true }: { publicId: string; context?: string; enabled?: boolean }) {
  const t = useTranslations("cases.samePerson");
  const ts = useTranslations("cases.search.miss.sources");
  const tr = useTranslations("cases.recommendation");
  const dateTime = useDateTime();
  const query = useRelatedVerifications(publicId, { enabled });
  const href = (id: string) => `/verifications/${encodeURIComponent(id)}${context ? `?${context}` : ""}`;

  let body: React.ReactNode;
  if (query.isError) {
    body = (
      <div className="flex flex-wrap items-center gap-2 text-sm">
        <p className="text-red-700">{t("error")}</p>
        <Button variant="secondary" pending={query.isFetching} onClick={() => void query.refetch()}>
          {t("retry")}
        </Button>
      </div>
    );
  } else if (!query.data) {
    body = (
      <p className="text-sm text-slate-600" role="status">
        {t("loading")}
      </p>
    );
  } else if (query.data.basis === "unknown") {
    body = (
      <div className="text-sm text-slate-700" data-testid="same-person-unknown">
        <p>{t("unknown")}</p>
        <ul className="mt-1 list-disc pl-5">
          {SOURCES.map((source) => (
            <li key={source}>{ts(source)}</li>
          ))}
        </ul>
      </div>
    );
  } else if (query.data.related.length === 0) {
    body = <p className="text-sm text-slate-600">{t("none")}</p>;
  } else {
    body = (
      <ul className="divide-y divide-slate-100" data-testid="same-person-list">
        {query.data.related.map((item) => (
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

  return (
    <section aria-labelledby="same-person-heading" className="rounded-lg border border-slate-200 bg-white p-4" data-testid="same-person">
      <h2 id="same-person-heading" className="text-lg font-semibold">
        {t("title")}
      </h2>
      <p className="mt-1 text-xs text-slate-600">{t("intro")}</p>
      <div className="mt-2">{body}</div>
    </section>
  );
}
