"use client";

import { usePathname, useSearchParams } from "next/navigation";
import { useMemo } from "react";

import { changeAddress } from "@/lib/shared/address-change";
import { useServerError, type ServerError } from "@/lib/shared/api-client/server-error";
import { type VerificationFilters as Filters } from "@/lib/upstream/model/verification-query";
import { useVerifications, verificationKeys } from "@/lib/verifications/hooks";
import { DEFAULT_PAGE_SIZE, filtersToUrlQuery, parseVerificationFilters, type InputProblem } from "@/lib/verifications/rules";
import { SORT_PARAM, sortParam, splitListQuery, type ListSort } from "@/lib/verifications/sorting";

/*
 * The list's state. The filters live in the URL: applying them pushes a history entry (changeAddress,
 * lib/shared/address-change.ts), which Next's router picks up (useSearchParams changes) without a server
 * round trip, so Back and Forward walk through views and the refetch goes through GET /api/verifications.
 * The first view was prefetched by page.tsx under the same query key.
 */
export function useVerificationList(serverError: ServerError | null) {
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
    changeAddress(nextQuery ? `${pathname}?${nextQuery}` : pathname, "push");
  };
  // Sorting reorders the rows already here: replace the history entry rather than add one per click.
  const sortBy = (nextSort: ListSort | null) => {
    const nextQuery = urlQuery(filters, nextSort);
    changeAddress(nextQuery ? `${pathname}?${nextQuery}` : pathname, "replace");
  };

  return { pathname, query, parsed, sort, filters, list, navigate, sortBy };
}
