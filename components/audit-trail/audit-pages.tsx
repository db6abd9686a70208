"use client";

import { useTranslations } from "next-intl";
import { lazy, Suspense, useEffect, useRef, useState, type ReactNode } from "react";

import { Alert } from "@/components/ui/alert";
import { Button } from "@/components/ui/button";
import { requiredContext } from "@/components/ui/required-context";
import type { AuditFilters } from "@/lib/audit-trail/filters";
import type { AuditPage } from "@/lib/audit-trail/types";

/*
 * The audit log's pages fetched in the browser, in order: the older pages after the first one the server drew
 * ("Load older events" continues from its cursor: keyset pagination, as fast on page 500 as on page 1), or every
 * page of a search by CPF, which the server never draws (the CPF stays out of the address). Kept for as long as the
 * view is on screen and nowhere else: no cache, so the page's first load carries none. The provider is drawn anew
 * (its key) for another view. Sequential by nature (each page's cursor is the last's), so one request at a time.
 */

interface AuditPager {
  pages: AuditPage[];
  /** Whether there is more to load: the first page of a search, or after the last page's cursor. */
  hasMore: boolean;
  loading: boolean;
  error: Error | null;
  loadMore: () => void;
  /** How many events the server drew above the pager's. */
  drawn: number;
}

const [PagerProvider, usePager] = requiredContext<AuditPager>("AuditPagesProvider");

export const useAuditPager: () => AuditPager = usePager;

export function AuditPagesProvider({
  filters,
  cpf,
  after,
  drawn,
  children,
}: {
  filters: AuditFilters;
  cpf: string | null;
  /** The cursor to continue from; "first" for a view the server did not draw (a search), loaded at once. */
  after: string | null | "first";
  drawn: number;
  children: ReactNode;
}) {
  const first = after === "first";
  const [state, setState] = useState<{ pages: AuditPage[]; loading: boolean; error: Error | null }>({
    pages: [],
    loading: first,
    error: null,
  });
  const inFlight = useRef<AbortController | null>(null);
  const last = state.pages.at(-1);
  const cursor = last ? last.nextCursor : first ? null : after;
  const hasMore = last ? last.nextCursor !== null : first || after !== null;

  const loadMore = () => {
    if (inFlight.current || !hasMore) return;
    const controller = new AbortController();
    inFlight.current = controller;
    setState((current) => ({ ...current, loading: true, error: null }));
    const settle = (next: (current: typeof state) => typeof state) => {
      if (controller.signal.aborted) return;
      inFlight.current = null;
      setState(next);
    };
    // The request's code (the API client) comes with the first press: the server drew the first page.
    import("@/lib/audit-trail/api")
      .then(({ fetchAuditPage }) => fetchAuditPage(filters, cpf, cursor, controller.signal))
      .then(
        (page) => settle((current) => ({ pages: [...current.pages, page], loading: false, error: null })),
        (error: unknown) =>
          settle((current) => ({ ...current, loading: false, error: error instanceof Error ? error : new Error(String(error)) })),
      );
  };

  // A search loads its first page as it opens; leaving the view stops what is on its way.
  useEffect(() => {
    if (first) loadMore();
    return () => {
      inFlight.current?.abort();
      inFlight.current = null;
    };
    // Once per view: the provider is drawn anew (its key) for another.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, []);

  return <PagerProvider value={{ ...state, hasMore, loadMore, drawn }}>{children}</PagerProvider>;
}

/** The rows' code is fetched with the first older page (the press asks for both): the server drew the first page's. */
const olderRowsCode = () => import("./audit-older-rows");
const OlderRows = lazy(olderRowsCode);

/** The older pages, as further bodies of the log's table (inside AuditEventTable's `older`). */
export function AuditOlderRows() {
  const { pages } = usePager();
  if (pages.length === 0) return null;
  return (
    <Suspense fallback={null}>
      <OlderRows pages={pages} />
    </Suspense>
  );
}

/** Under the table: a failed page's error, "Load older events" while there are more, and how many are shown. */
export function AuditMore() {
  const t = useTranslations("audit");
  const pager = usePager();
  const shown = pager.pages.reduce((count, page) => count + page.events.length, pager.drawn);
  return (
    <>
      {pager.error ? (
        <Alert tone="error" title={t("errors.title")}>
          {pager.error.message}
        </Alert>
      ) : null}
      <div className="flex flex-wrap items-center gap-3">
        {pager.hasMore ? (
          <Button
            variant="secondary"
            pending={pager.loading}
            onClick={() => {
              void olderRowsCode();
              pager.loadMore();
            }}
          >
            {t("list.loadMore")}
          </Button>
        ) : null}
        <p className="text-sm text-slate-700">
          {t("list.shown", { count: shown })} · {pager.hasMore ? t("list.more") : t("list.end")}
        </p>
      </div>
    </>
  );
}
