import { useTimeZone, useTranslations } from "next-intl";
import type { ReactNode } from "react";

import { AuditEventTable } from "@/components/audit-trail/audit-event-table";
import {
  AuditExportIsland,
  AuditFiltersIsland,
  AuditResults,
  AuditSearchProvider,
  AuditStatus,
} from "@/components/audit-trail/audit-log-controls";
import { AuditMore, AuditOlderRows, AuditPagesProvider } from "@/components/audit-trail/audit-pages";
import { Alert } from "@/components/ui/alert";
import { AppLink as Link } from "@/components/ui/app-link";
import { InvalidFiltersAlert } from "@/components/ui/invalid-filters-alert";
import { ServerErrorState } from "@/components/ui/server-error-state";
import { ViewNavigationProvider } from "@/components/ui/view-navigation";
import { compactFilters, type AuditFilters, type AuditParse } from "@/lib/audit-trail/filters";
import type { AuditPage } from "@/lib/audit-trail/types";
import type { ServerError } from "@/lib/shared/api-client/server-error";

/*
 * The audit log, drawn on the server with its first page: heading, filters, export, the refused filters, the error,
 * no events, or the events (a page view's folded into one row) with "Load older events". The browser's part is its
 * islands (./audit-log-controls.tsx: the filters change the address and the server draws the new view; a search by
 * CPF is fetched in the browser) and the older pages (./audit-pages.tsx).
 */

/** What the page read: the address's filters, and the first page for them (none when they were refused). */
export interface AuditView {
  parsed: AuditParse<AuditFilters>;
  /** The address's query, which names the view. */
  query: string;
  answer: { page: AuditPage } | { error: ServerError } | null;
}

export function AuditLog({
  view,
  path,
  actions,
  connections,
  notice,
}: {
  view: AuditView;
  path: string;
  actions: string[];
  /** Every connection, retired ones too (the trail keeps their events), for the filter. */
  connections: Array<{ id: string; name: string }>;
  /** Under the heading: the repeated CPF-search misses panel. */
  notice?: ReactNode;
}) {
  const t = useTranslations("audit");
  const timeZone = useTimeZone() ?? "UTC";
  return (
    <ViewNavigationProvider path={path}>
      <AuditSearchProvider>
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
          <AuditFiltersIsland actions={actions} connections={connections} />
          <div className="rounded-lg border border-slate-200 bg-white p-4">
            <AuditExportIsland />
          </div>
          <div className="flex h-6 items-center gap-2">
            <AuditStatus />
          </div>
          <AuditResults>
            <AuditViewBody view={view} path={path} />
          </AuditResults>
        </section>
      </AuditSearchProvider>
    </ViewNavigationProvider>
  );
}

function AuditViewBody({ view, path }: { view: AuditView; path: string }) {
  const t = useTranslations("audit");
  const { parsed, answer } = view;
  if (!parsed.ok)
    return (
      <InvalidFiltersAlert
        title={t("filters.invalidTitle")}
        body={t("filters.invalidBody")}
        clearHref={path}
        clearLabel={t("filters.clear")}
        problems={parsed.problems.map((problem) => ({
          field: problem.field,
          text: problem.code === "not_accepted" ? t("filters.notAccepted") : problem.message,
        }))}
      />
    );
  if (!answer) return null;
  if ("error" in answer) return <ServerErrorState error={answer.error} />;
  const { page } = answer;
  if (page.events.length === 0)
    return (
      <Alert tone="info" title={t("list.emptyTitle")}>
        {t("list.emptyBody")}
      </Alert>
    );
  return (
    // Drawn anew for another view, or the same view with newer events (another first page, another cursor).
    <AuditPagesProvider
      key={`${view.query} ${page.nextCursor}`}
      filters={compactFilters(parsed.value)}
      cpf={null}
      after={page.nextCursor}
      drawn={page.events.length}
    >
      <div className="space-y-3">
        <AuditEventTable events={page.events} staff={page.staff} caption={t("table.caption")} older={<AuditOlderRows />} />
        <AuditMore />
      </div>
    </AuditPagesProvider>
  );
}
