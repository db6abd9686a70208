"use client";

import { useTimeZone, useTranslations } from "next-intl";
import Link from "next/link";
import { usePathname, useSearchParams } from "next/navigation";
import { useMemo, useState } from "react";

import { AuditEventTable, AuditEventTableSkeleton } from "@/components/audit-trail/audit-event-table";
import { AuditExport } from "@/components/audit-trail/audit-export";
import { AuditFilters } from "@/components/audit-trail/audit-filters";
import { Alert } from "@/components/ui/alert";
import { Button } from "@/components/ui/button";
import { InvalidFiltersAlert } from "@/components/ui/invalid-filters-alert";
import { Spinner } from "@/components/ui/spinner";
import {
  auditFiltersToSearchParams,
  auditParamsFromSearchParams,
  compactFilters,
  parseAuditFilters,
  type AuditFilters as Filters,
} from "@/lib/audit-trail/filters";
import { auditKeys, useAuditEvents } from "@/lib/audit-trail/hooks";
import { useServerError, type ServerError } from "@/lib/shared/api-client/server-error";
import { maskCpf } from "@/lib/shared/cpf";

/*
 * The audit log. Filters live in the URL (applying pushes a history entry, so Back and Forward walk
 * through views) except a searched CPF, which stays in this component's state and travels to the API in
 * a header. The first page was prefetched by page.tsx under the same query key; "Load older events"
 * continues from the last event shown (keyset pagination: as fast on page 500 as on page 1).
 */

export function AuditPageClient({
  actions,
  serverError,
  notice,
}: {
  actions: string[];
  serverError: ServerError | null;
  /** Rendered by the server under the heading: the repeated CPF-search misses panel. */
  notice?: React.ReactNode;
}) {
  const t = useTranslations("audit");
  const timeZone = useTimeZone() ?? "UTC";
  const pathname = usePathname();
  const searchParams = useSearchParams();
  const query = searchParams.toString();
  const parsed = useMemo(() => parseAuditFilters(auditParamsFromSearchParams(new URLSearchParams(query))), [query]);
  const filters = useMemo<Filters>(() => (parsed.ok ? compactFilters(parsed.value) : {}), [parsed]);
  const [cpf, setCpf] = useState<string | null>(null);
  // The first page's failure on the server (page.tsx): its error state, and no fetch until the retry.
  useServerError(auditKeys.list(filters, null), serverError);
  const list = useAuditEvents(filters, cpf, { enabled: parsed.ok });

  const apply = (next: Filters, nextCpf: string | null) => {
    setCpf(nextCpf);
    const nextQuery = auditFiltersToSearchParams(next).toString();
    if (nextQuery !== query) window.history.pushState(null, "", nextQuery ? `${pathname}?${nextQuery}` : pathname);
  };

  const events = useMemo(() => list.data?.pages.flatMap((page) => page.events) ?? [], [list.data]);
  // Each page names the staff its events mention; the table reads them all.
  const staff = useMemo(() => Object.assign({}, ...(list.data?.pages.map((page) => page.staff ?? {}) ?? [])), [list.data]);
  const caption = t("table.caption");
  const refreshing = list.isFetching && !list.isFetchingNextPage && list.data !== undefined;

  let body: React.ReactNode;
  if (!parsed.ok) {
    body = (
      <InvalidFiltersAlert
        title={t("filters.invalidTitle")}
        body={t("filters.invalidBody")}
        clearHref={pathname}
        clearLabel={t("filters.clear")}
        problems={parsed.problems.map((problem) => ({
          field: problem.field,
          text: problem.code === "not_accepted" ? t("filters.notAccepted") : problem.message,
        }))}
      />
    );
  } else if (list.isError && events.length === 0) {
    body = (
      <Alert
        tone="error"
        title={t("errors.title")}
        action={
          <Button variant="secondary" onClick={() => void list.refetch()} pending={list.isFetching}>
            {t("errors.retry")}
          </Button>
        }
      >
        {list.error.message}
      </Alert>
    );
  } else if (!list.data) {
    body = <AuditEventTableSkeleton rows={10} caption={caption} />;
  } else if (events.length === 0) {
    body = (
      <Alert tone="info" title={t("list.emptyTitle")}>
        {t("list.emptyBody")}
      </Alert>
    );
  } else {
    body = (
      <div className="space-y-3">
        {/* The table is its own named, focusable scroll region from md up, and cards below (components/ui/data-table.tsx). */}
        <div className={`transition-opacity ${refreshing ? "opacity-60" : ""}`}>
          <AuditEventTable events={events} staff={staff} caption={caption} busy={list.isFetching} />
        </div>
        {list.isFetchNextPageError ? (
          <Alert tone="error" title={t("errors.title")}>
            {list.error?.message}
          </Alert>
        ) : null}
        <div className="flex flex-wrap items-center gap-3">
          {list.hasNextPage ? (
            <Button variant="secondary" pending={list.isFetchingNextPage} onClick={() => void list.fetchNextPage()}>
              {t("list.loadMore")}
            </Button>
          ) : null}
          <p className="text-sm text-slate-700">
            {t("list.shown", { count: events.length })} · {list.hasNextPage ? t("list.more") : t("list.end")}
          </p>
        </div>
      </div>
    );
  }

  return (
    <section className="space-y-4">
      <div>
        <Link href="/admin" className="text-sm text-brand-800 underline">
          {t("back")}
        </Link>
        <h1 className="mt-1 text-2xl font-semibold">{t("title")}</h1>
        <p className="mt-1 max-w-3xl text-sm text-slate-600">{t("intro")}</p>
        <p className="mt-1 text-xs text-slate-600">{t("timeZone", { zone: timeZone })}</p>
      </div>
      {notice}
      <AuditFilters key={`${query}|${cpf ?? ""}`} filters={filters} cpf={cpf} actions={actions} onApply={apply} />
      {cpf ? <p className="text-sm font-medium text-slate-800">{t("filters.cpfActive", { cpf: maskCpf(cpf) })}</p> : null}
      <div className="rounded-lg border border-slate-200 bg-white p-4">
        <AuditExport filters={filters} cpf={cpf} disabled={!parsed.ok} />
      </div>
      <div className="flex h-6 items-center gap-2">
        <p role="status" aria-live="polite" className="flex items-center gap-2 text-xs text-slate-700">
          {list.isFetching && !list.isFetchingNextPage ? (
            <>
              <Spinner className="h-3 w-3 text-brand-700" />
              {t("list.updating")}
            </>
          ) : null}
        </p>
      </div>
      {body}
    </section>
  );
}
