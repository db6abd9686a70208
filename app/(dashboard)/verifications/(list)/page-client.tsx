"use client";

import { useTranslations } from "next-intl";
import Link from "next/link";
import { usePathname, useSearchParams } from "next/navigation";
import { useId, useMemo } from "react";

import { Alert } from "@/components/ui/alert";
import { ApiErrorState } from "@/components/ui/error-state";
import { InvalidFiltersAlert } from "@/components/ui/invalid-filters-alert";
import { Spinner } from "@/components/ui/spinner";
import { CreateVerificationDialog } from "@/components/verifications/create-verification-dialog";
import { LiveChangesNotice } from "@/components/verifications/live-changes-notice";
import { VerificationExport } from "@/components/verifications/verification-export";
import { VerificationFilters } from "@/components/verifications/verification-filters";
import { VerificationPagination } from "@/components/verifications/verification-pagination";
import { SortNote, VerificationTable, VerificationTableSkeleton } from "@/components/verifications/verification-table";
import { SaveViewDialog } from "@/components/views/save-view-dialog";
import { useServerError, type ServerError } from "@/lib/shared/api-client/server-error";
import { type VerificationFilters as Filters } from "@/lib/upstream/model/verification-query";
import { useVerifications, verificationKeys } from "@/lib/verifications/hooks";
import { DEFAULT_PAGE_SIZE, filtersToUrlQuery, parseVerificationFilters, type InputProblem } from "@/lib/verifications/rules";
import { SORT_PARAM, sortItems, sortParam, splitListQuery, type ListSort } from "@/lib/verifications/sorting";

/*
 * The list. The filters live in the URL: applying them pushes a history entry with
 * `window.history.pushState`, which Next's router picks up (useSearchParams changes) without a server
 * round trip, so Back and Forward walk through views and the refetch goes through GET /api/verifications.
 * The first view was prefetched by page.tsx under the same query key.
 */
export function VerificationsPageClient({ maxPerPage, serverError }: { maxPerPage: number; serverError: ServerError | null }) {
  const t = useTranslations("verifications");
  const pathname = usePathname();
  const searchParams = useSearchParams();
  const query = searchParams.toString();
  const { parsed, sort } = useMemo(() => {
    const split = splitListQuery(new URLSearchParams(query));
    const filtersParsed = parseVerificationFilters(split.filterParams);
    if (!split.sortInvalid) return { parsed: filtersParsed, sort: split.sort };
    // A sort naming no column is refused like a bad filter: named, and nothing is fetched.
    const sortProblem: InputProblem = { field: "sort", message: "is not valid" };
    return {
      parsed: filtersParsed.ok
        ? { ok: false as const, problems: [sortProblem] }
        : { ...filtersParsed, problems: [...filtersParsed.problems, sortProblem] },
      sort: null,
    };
  }, [query]);
  const filters: Filters = parsed.ok ? parsed.filters : { per_page: DEFAULT_PAGE_SIZE };
  // The first view's failure on the server (page.tsx): its error state, and no fetch until the retry.
  useServerError(verificationKeys.list(filters), serverError);
  const list = useVerifications(filters, { enabled: parsed.ok });

  const urlQuery = (next: Filters, nextSort: ListSort | null) => {
    const params = new URLSearchParams(filtersToUrlQuery(next));
    if (nextSort) params.set(SORT_PARAM, sortParam(nextSort));
    return params.toString();
  };
  const navigate = (next: Filters, nextSort: ListSort | null = sort) => {
    const nextQuery = urlQuery(next, nextSort);
    // The same view again: fetch it afresh rather than stacking a duplicate history entry.
    if (parsed.ok && nextQuery === urlQuery(filters, sort)) {
      void list.refetch();
      return;
    }
    window.history.pushState(null, "", nextQuery ? `${pathname}?${nextQuery}` : pathname);
  };
  // Sorting reorders the rows already here: replace the history entry rather than add one per click.
  const sortBy = (nextSort: ListSort | null) => {
    const nextQuery = urlQuery(filters, nextSort);
    window.history.replaceState(null, "", nextQuery ? `${pathname}?${nextQuery}` : pathname);
  };

  const data = list.data;
  const sortNoteId = useId();
  const showsRows = parsed.ok && !list.isError && !!data && data.items.length > 0;
  const updating = list.isFetching && data !== undefined;
  const caption = t("list.caption");

  let body: React.ReactNode;
  if (!parsed.ok) {
    body = (
      <InvalidFiltersAlert
        title={t("filters.invalidTitle")}
        body={t("filters.invalidBody")}
        clearHref={pathname}
        clearLabel={t("list.empty.clear")}
        problems={parsed.problems.map((problem) => ({
          field: problem.field,
          text: problem.code === "not_accepted" ? t("filters.notAccepted") : t("filters.invalidValue"),
        }))}
      />
    );
  } else if (list.isError) {
    body = <ApiErrorState error={list.error} onRetry={() => void list.refetch()} retrying={list.isFetching} />;
  } else if (!data) {
    body = <VerificationTableSkeleton rows={Math.min(filters.per_page ?? DEFAULT_PAGE_SIZE, 20)} caption={caption} />;
  } else if (data.items.length === 0) {
    body = (
      <Alert
        tone="info"
        title={t("list.empty.title")}
        action={
          <Link href={pathname} className="font-medium text-brand-800 underline">
            {t("list.empty.clear")}
          </Link>
        }
      >
        {t("list.empty.body")}
      </Alert>
    );
  } else {
    body = (
      <div className="space-y-4">
        <div className={`transition-opacity ${list.isPlaceholderData ? "opacity-60" : ""}`}>
          <VerificationTable
            items={sortItems(data.items, sort, data.enrichment)}
            enrichment={data.enrichment}
            caption={caption}
            busy={updating}
            listQuery={query}
            sort={sort}
            onSort={sortBy}
            sortNoteId={sortNoteId}
          />
        </div>
        <VerificationPagination
          pagination={data.pagination}
          available={data.pagingAvailable}
          onPage={(page) => navigate({ ...filters, page })}
        />
      </div>
    );
  }

  return (
    <section className="space-y-4">
      <div className="flex flex-wrap items-start justify-between gap-3">
        <div>
          <h1 className="text-2xl font-semibold">{t("list.title")}</h1>
          <p className="mt-1 text-sm text-slate-600">{t("list.intro")}</p>
        </div>
        <div className="flex flex-wrap items-start gap-2">
          {parsed.ok ? <VerificationExport filters={filters} /> : null}
          {parsed.ok ? <SaveViewDialog scope="verifications" /> : null}
          <CreateVerificationDialog />
        </div>
      </div>
      <VerificationFilters filters={filters} maxPerPage={maxPerPage} onApply={navigate} />
      {/* Always present and one line high on a desktop: showing progress never moves the table. The
          sort's "this page only" note sits here, just above the header, where it costs the list no row. */}
      <div className="flex min-h-5 flex-wrap items-center gap-x-3 gap-y-1">
        <div className={`relative h-1 w-32 overflow-hidden rounded-full ${list.isFetching ? "bg-slate-200" : ""}`} aria-hidden="true">
          {list.isFetching ? <div className="absolute inset-0 animate-pulse rounded-full bg-brand-600" /> : null}
        </div>
        <p role="status" aria-live="polite" className="flex items-center gap-2 text-xs text-slate-700">
          {list.isFetching ? (
            <>
              <Spinner className="h-3 w-3 text-brand-700" />
              {t("list.updating")}
            </>
          ) : data && !list.isError ? (
            t("list.updated", { count: data.pagination.total })
          ) : null}
        </p>
        {showsRows ? <SortNote id={sortNoteId} /> : null}
      </div>
      <LiveChangesNotice />
      {body}
    </section>
  );
}
