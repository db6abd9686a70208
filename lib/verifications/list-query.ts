/*
 * The list page's query as one value: its filters (sent upstream) and its on-screen sort (never sent), read from
 * the address and written back to it. The page reads it on the server; the filters, sort and pages write it in the
 * browser; the detail's previous and next read it from its `list` parameter. Shared: no server imports.
 */
import type { VerificationFilters } from "@/lib/upstream/model/verification-query";

import { filtersToUrlQuery, parseVerificationFilters, type InputProblem } from "./rules";
import { SORT_PARAM, sortParam, splitListQuery, type ListSort } from "./sorting";

export type ParsedListQuery = { ok: true; filters: VerificationFilters; sort: ListSort | null } | { ok: false; problems: InputProblem[] };

/** The address's query as filters and sort; a sort naming no column is refused beside the filters' problems. */
export function parseListQuery(query: URLSearchParams): ParsedListQuery {
  const split = splitListQuery(query);
  const parsed = parseVerificationFilters(split.filterParams);
  if (!split.sortInvalid) return parsed.ok ? { ok: true, filters: parsed.filters, sort: split.sort } : parsed;
  const sortProblem: InputProblem = { field: "sort", message: "is not valid" };
  return { ok: false, problems: [...(parsed.ok ? [] : parsed.problems), sortProblem] };
}

/** The address's query for `filters` and `sort` ("" for the unfiltered list in the service's order). */
export function listQueryOf(filters: VerificationFilters, sort: ListSort | null): string {
  const params = new URLSearchParams(filtersToUrlQuery(filters));
  if (sort) params.set(SORT_PARAM, sortParam(sort));
  return params.toString();
}
