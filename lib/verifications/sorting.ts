/*
 * Sorting of the list. The service's list route takes no sort parameter (the contract lists its parameters
 * and read routes refuse any other), so the list is sorted within the page on screen: the service's own
 * order (newest first) decides which rows are on the page, this decides their order. The sort lives in the
 * URL beside the filters (`sort=-risk_score`), is never sent upstream, and previous/next on the detail
 * follow it. Shared: no server imports.
 */
import type { Verification } from "@/lib/upstream/model/verification";

import type { ListEnrichment } from "./types";

export const SORT_KEYS = ["created_at", "decided_at", "identity_score", "risk_score", "status", "ref_id", "case_age"] as const;
export type SortKey = (typeof SORT_KEYS)[number];
export type SortDirection = "asc" | "desc";
export interface ListSort {
  key: SortKey;
  direction: SortDirection;
}

export const SORT_PARAM = "sort";

export function parseSort(value: string | null | undefined): ListSort | null {
  if (!value) return null;
  const direction: SortDirection = value.startsWith("-") ? "desc" : "asc";
  const key = value.replace(/^-/, "");
  return (SORT_KEYS as readonly string[]).includes(key) ? { key: key as SortKey, direction } : null;
}

export function sortParam(sort: ListSort): string {
  return `${sort.direction === "desc" ? "-" : ""}${sort.key}`;
}

/**
 * Splits the list page's query: the filters (validated and sent upstream) and the on-screen sort (never
 * sent). `sortInvalid`: a sort was given that names no sortable column (the page names it as refused).
 */
export function splitListQuery(query: URLSearchParams): { filterParams: URLSearchParams; sort: ListSort | null; sortInvalid: boolean } {
  const filterParams = new URLSearchParams(query);
  const raw = filterParams.getAll(SORT_PARAM);
  filterParams.delete(SORT_PARAM);
  const sort = raw.length === 1 ? parseSort(raw[0]) : null;
  return { filterParams, sort, sortInvalid: raw.length > 0 && sort === null };
}

type Value = number | string | null;

function valueOf(item: Verification, key: SortKey, enrichment: Record<string, ListEnrichment> | undefined): Value {
  const time = (iso: string | null | undefined) => {
    const ms = iso ? Date.parse(iso) : NaN;
    return Number.isNaN(ms) ? null : ms;
  };
  switch (key) {
    case "created_at":
      return time(item.createdAt);
    case "decided_at":
      return time(item.decidedAt);
    case "identity_score":
      return item.identityScore;
    case "risk_score":
      return item.riskScore;
    case "status":
      return item.status;
    case "ref_id":
      return enrichment?.[item.publicId]?.refId ?? null;
    case "case_age": {
      // Older case first when ascending by age: the opening time, reversed.
      const opened = time(enrichment?.[item.publicId]?.caseOpenedAt);
      return opened === null ? null : -opened;
    }
  }
}

/** A sorted copy; missing values last in both directions, ties in the service's order. */
export function sortItems(items: Verification[], sort: ListSort | null, enrichment?: Record<string, ListEnrichment>): Verification[] {
  if (!sort) return items;
  const sign = sort.direction === "asc" ? 1 : -1;
  return items
    .map((item, index) => ({ item, index, value: valueOf(item, sort.key, enrichment) }))
    .sort((a, b) => {
      if (a.value === null || b.value === null) return a.value === b.value ? a.index - b.index : a.value === null ? 1 : -1;
      const order =
        typeof a.value === "number" && typeof b.value === "number" ? a.value - b.value : String(a.value).localeCompare(String(b.value));
      return order * sign || a.index - b.index;
    })
    .map(({ item }) => item);
}
