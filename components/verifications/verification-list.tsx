import { useTranslations } from "next-intl";
import type { ReactNode } from "react";

import { Alert } from "@/components/ui/alert";
import { AppLink as Link } from "@/components/ui/app-link";
import { InvalidFiltersAlert } from "@/components/ui/invalid-filters-alert";
import { ServerErrorState } from "@/components/ui/server-error-state";
import { ViewNavigationProvider, ViewPending } from "@/components/ui/view-navigation";
import type { ServerError } from "@/lib/shared/api-client/server-error";
import { listViewOf } from "@/lib/verifications/list-memory";
import type { ParsedListQuery } from "@/lib/verifications/list-query";
import { DEFAULT_PAGE_SIZE } from "@/lib/verifications/rules";
import { sortItems } from "@/lib/verifications/sorting";
import type { VerificationListResponse } from "@/lib/verifications/types";

import { CreateVerificationDialog } from "./create-verification-dialog";
import { ExportIsland, ListFilters, ListPagination, LiveChangesIsland, RememberListView } from "./list-controls";
import { ListStatus } from "./list-navigation";
import { SortNote, VerificationTable } from "./verification-table";

/*
 * The verifications list, drawn on the server with its view: title and buttons, filters, status line, and the
 * refused filters, the error, no rows, or the rows and pages. The browser's part is its islands
 * (./list-controls.tsx): the filters, sort and pages change the address and the server draws the new view
 * (components/ui/view-navigation.tsx); the export and the notice of live changes come once the page has loaded.
 */

/** What the page read: the address's query, and the service's answer for it (none when the query was refused). */
export interface ListView {
  parsed: ParsedListQuery;
  /** The address's query as the page was asked for it, carried by each row's link to the detail. */
  query: string;
  answer: { data: VerificationListResponse } | { error: ServerError } | null;
}

// One list per page: the sort note's id, which each sort button names as its description.
const SORT_NOTE_ID = "verification-list-sort-note";

export function VerificationList({
  view,
  path,
  maxPerPage,
  actions,
}: {
  view: ListView;
  path: string;
  maxPerPage: number;
  actions?: ReactNode;
}) {
  const t = useTranslations("verifications");
  const { parsed, answer } = view;
  const data = answer && "data" in answer ? answer.data : null;
  const showsRows = parsed.ok && data !== null && data.items.length > 0;
  return (
    <ViewNavigationProvider path={path}>
      <section className="space-y-4">
        <div className="flex flex-wrap items-start justify-between gap-3">
          <div>
            <h1 className="text-2xl font-semibold">{t("list.title")}</h1>
            <p className="mt-1 text-sm text-slate-600">{t("list.intro")}</p>
          </div>
          <div className="flex flex-wrap items-start gap-2">
            {parsed.ok ? <ExportIsland filters={parsed.filters} /> : null}
            {parsed.ok ? actions : null}
            <CreateVerificationDialog />
          </div>
        </div>
        {/* Refused filters: the form starts from the unfiltered list. */}
        <ListFilters
          filters={parsed.ok ? parsed.filters : { per_page: DEFAULT_PAGE_SIZE }}
          sort={parsed.ok ? parsed.sort : null}
          maxPerPage={maxPerPage}
        />
        {/* The sort's "this page only" note sits in the status line, just above the header, where it costs the list no row. */}
        <div className="flex min-h-5 flex-wrap items-center gap-x-3 gap-y-1">
          <ListStatus total={data ? data.pagination.total : null} />
          {showsRows ? <SortNote id={SORT_NOTE_ID} /> : null}
        </div>
        <LiveChangesIsland />
        <ViewPending>
          <ListBody view={view} path={path} />
        </ViewPending>
      </section>
    </ViewNavigationProvider>
  );
}

function ListBody({ view, path }: { view: ListView; path: string }) {
  const t = useTranslations("verifications");
  const { parsed, answer } = view;
  if (!parsed.ok)
    return (
      <InvalidFiltersAlert
        title={t("filters.invalidTitle")}
        body={t("filters.invalidBody")}
        clearHref={path}
        clearLabel={t("list.empty.clear")}
        problems={parsed.problems.map((problem) => ({
          field: problem.field,
          text: problem.code === "not_accepted" ? t("filters.notAccepted") : t("filters.invalidValue"),
        }))}
      />
    );
  if (!answer) return null;
  if ("error" in answer) return <ServerErrorState error={answer.error} />;
  const data = answer.data;
  if (data.items.length === 0)
    return (
      <Alert
        tone="info"
        title={t("list.empty.title")}
        action={
          <Link href={path} className="font-medium text-brand-800 underline">
            {t("list.empty.clear")}
          </Link>
        }
      >
        {t("list.empty.body")}
      </Alert>
    );
  const items = sortItems(data.items, parsed.sort, data.enrichment);
  return (
    <div className="space-y-4">
      <RememberListView query={view.query} view={listViewOf(items, data)} />
      <VerificationTable
        items={items}
        enrichment={data.enrichment}
        caption={t("list.caption")}
        listQuery={view.query}
        sort={parsed.sort}
        filters={parsed.filters}
        sortNoteId={SORT_NOTE_ID}
      />
      <ListPagination filters={parsed.filters} sort={parsed.sort} pagination={data.pagination} available={data.pagingAvailable} />
    </div>
  );
}
