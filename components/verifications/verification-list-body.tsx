"use client";

import { useTranslations } from "next-intl";

import { Alert } from "@/components/ui/alert";
import { AppLink as Link } from "@/components/ui/app-link";
import { ApiErrorState } from "@/components/ui/error-state";
import { InvalidFiltersAlert } from "@/components/ui/invalid-filters-alert";
import { DEFAULT_PAGE_SIZE } from "@/lib/verifications/rules";
import { sortItems } from "@/lib/verifications/sorting";

import type { useVerificationList } from "./use-verification-list";
import { VerificationPagination } from "./verification-pagination";
import { VerificationTable, VerificationTableSkeleton } from "./verification-table";

/** What the list shows below its filters: the refused filters, the error, the skeleton, no rows, or the rows and pages. */
export function VerificationListBody({ state, sortNoteId }: { state: ReturnType<typeof useVerificationList>; sortNoteId: string }) {
  const t = useTranslations("verifications");
  const { parsed, list, filters, pathname, sort } = state;
  const data = list.data;
  const caption = t("list.caption");

  if (!parsed.ok)
    return (
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
  if (list.isError) return <ApiErrorState error={list.error} onRetry={() => void list.refetch()} retrying={list.isFetching} />;
  if (!data) return <VerificationTableSkeleton rows={Math.min(filters.per_page ?? DEFAULT_PAGE_SIZE, 20)} caption={caption} />;
  if (data.items.length === 0)
    return (
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
  return (
    <div className="space-y-4">
      <div className={`transition-opacity ${list.isPlaceholderData ? "opacity-60" : ""}`}>
        <VerificationTable
          items={sortItems(data.items, sort, data.enrichment)}
          enrichment={data.enrichment}
          caption={caption}
          busy={list.isFetching && data !== undefined}
          listQuery={state.query}
          sort={sort}
          onSort={state.sortBy}
          sortNoteId={sortNoteId}
        />
      </div>
      <VerificationPagination
        pagination={data.pagination}
        available={data.pagingAvailable}
        onPage={(page) => state.navigate({ ...filters, page })}
      />
    </div>
  );
}
