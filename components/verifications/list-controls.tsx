"use client";

import { useTranslations } from "next-intl";
import { lazy, useEffect, type ReactNode } from "react";

import { AfterLoad } from "@/components/ui/after-load";
import { BareButton, Button } from "@/components/ui/button";
import { useViewNavigation } from "@/components/ui/view-navigation";
import type { Pagination } from "@/lib/upstream/model/verification";
import type { VerificationFilters as Filters } from "@/lib/upstream/model/verification-query";
import { rememberListView, type RememberedListView } from "@/lib/verifications/list-memory";
import { listQueryOf } from "@/lib/verifications/list-query";
import type { ListSort, SortKey } from "@/lib/verifications/sorting";

import { LIVE_NOTICE_REGION } from "./list-navigation";
import { VerificationFilters } from "./verification-filters";
import { VerificationPagination } from "./verification-pagination";

/*
 * The list's islands: the controls that need the browser, each changing the address through the list's navigation
 * (components/ui/view-navigation.tsx). Everything else on the list is drawn on the server.
 */

const LiveChangesNotice = lazy(() => import("./live-changes-notice"));
const VerificationExport = lazy(() => import("./verification-export"));

/** The filters: Apply shows the first page of the new view (the sort kept), or the same view afresh. */
export function ListFilters({ filters, sort, maxPerPage }: { filters: Filters; sort: ListSort | null; maxPerPage: number }) {
  const navigation = useViewNavigation();
  const onApply = (next: Filters) => {
    const query = listQueryOf(next, sort);
    if (query === listQueryOf(filters, sort)) navigation.refresh();
    else navigation.show(query, "push");
  };
  return <VerificationFilters filters={filters} maxPerPage={maxPerPage} onApply={onApply} />;
}

/**
 * A column's sort button. Descending first for numbers and dates (highest risk, newest), then ascending, then the
 * service's order. Sorting reorders the view on screen: it replaces the history entry rather than adding one.
 */
export function SortButton({
  filters,
  sort,
  column,
  numeric,
  noteId,
  children,
}: {
  filters: Filters;
  sort: ListSort | null;
  column: SortKey;
  numeric: boolean;
  noteId: string;
  children: ReactNode;
}) {
  const navigation = useViewNavigation();
  const active = sort?.key === column ? sort.direction : null;
  const next: ListSort | null =
    active === null ? { key: column, direction: "desc" } : active === "desc" ? { key: column, direction: "asc" } : null;
  return (
    <BareButton
      type="button"
      className={`inline-flex max-w-full items-end gap-1 uppercase hover:text-slate-900 ${numeric ? "text-right" : "text-left"}`}
      data-sort={column}
      aria-describedby={noteId}
      onClick={() => navigation.show(listQueryOf(filters, next), "replace")}
    >
      {children}
    </BareButton>
  );
}

/** Previous and next page of the view, its sort kept. */
export function ListPagination({
  filters,
  sort,
  pagination,
  available,
}: {
  filters: Filters;
  sort: ListSort | null;
  pagination: Pagination;
  available: boolean;
}) {
  const navigation = useViewNavigation();
  return (
    <VerificationPagination
      pagination={pagination}
      available={available}
      onPage={(page) => navigation.show(listQueryOf({ ...filters, page }, sort), "push")}
    />
  );
}

/**
 * The notice of verifications created or changed since the list was drawn. It is fetched in the browser and was never
 * part of the first paint, so its code (and react-query with it) comes once the page has loaded; until then its live
 * region stands empty in its place, so a screen reader announces the notice when it appears.
 */
export function LiveChangesIsland() {
  return (
    <AfterLoad standIn={<div role="status" aria-live="polite" className={LIVE_NOTICE_REGION} />}>
      <LiveChangesNotice />
    </AfterLoad>
  );
}

/**
 * "Export CSV" of the view. Its code (and react-query with it) comes once the page has loaded; until then the same
 * button stands in its place, disabled (the codebase's rule for a press before the page's code: refused visibly).
 */
export function ExportIsland({ filters }: { filters: Filters }) {
  const t = useTranslations("verifications.export");
  return (
    <AfterLoad
      standIn={
        <Button variant="secondary" disabled>
          {t("button")}
        </Button>
      }
    >
      <VerificationExport filters={filters} />
    </AfterLoad>
  );
}

/** Keeps the view drawn, in its order, for the detail's previous and next (lib/verifications/list-memory.ts). */
export function RememberListView({ query, view }: { query: string; view: RememberedListView }) {
  useEffect(() => rememberListView(query, view), [query, view]);
  return null;
}
