"use client";

import { useTranslations } from "next-intl";
import { useMemo } from "react";

import { AuditEventTable, AuditEventTableSkeleton } from "@/components/audit-trail/audit-event-table";
import { Alert } from "@/components/ui/alert";
import { Button } from "@/components/ui/button";
import type { useAuditEvents } from "@/lib/audit-trail/hooks";

/**
 * What the audit log shows under its filters: an error with a retry, the skeleton while the first page
 * loads, the empty state, or the events so far with "Load older events".
 */
export function AuditLogResults({ list }: { list: ReturnType<typeof useAuditEvents> }) {
  const t = useTranslations("audit");
  const events = useMemo(() => list.data?.pages.flatMap((page) => page.events) ?? [], [list.data]);
  // Each page names the staff its events mention; the table reads them all.
  const staff = useMemo(() => Object.assign({}, ...(list.data?.pages.map((page) => page.staff ?? {}) ?? [])), [list.data]);
  const caption = t("table.caption");
  const refreshing = list.isFetching && !list.isFetchingNextPage && list.data !== undefined;

  if (list.isError && events.length === 0) {
    return (
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
  }
  if (!list.data) return <AuditEventTableSkeleton rows={10} caption={caption} />;
  if (events.length === 0) {
    return (
      <Alert tone="info" title={t("list.emptyTitle")}>
        {t("list.emptyBody")}
      </Alert>
    );
  }
  return (
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
