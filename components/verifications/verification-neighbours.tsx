"use client";

import { useTranslations } from "next-intl";

import { AppLink as Link } from "@/components/ui/app-link";
import { type VerificationFilters } from "@/lib/upstream/model/verification-query";
import { useVerifications } from "@/lib/verifications/hooks";
import { filtersToUrlQuery, parseVerificationFilters } from "@/lib/verifications/rules";
import { SORT_PARAM, sortItems, sortParam, splitListQuery, type ListSort } from "@/lib/verifications/sorting";

import { detailHref } from "./detail-href";

/*
 * Previous / next verification of the list the analyst came from, in the order it was shown (filters and
 * on-screen sort travel in the detail's `list` parameter). The list's page comes from react-query's cache
 * when the analyst came from it; past the page's edge, the adjacent page is read the same way.
 */

function queryOf(filters: VerificationFilters, sort: ListSort | null): string {
  const params = new URLSearchParams(filtersToUrlQuery(filters));
  if (sort) params.set(SORT_PARAM, sortParam(sort));
  return params.toString();
}

export function backHref(listQuery: string): string {
  return listQuery ? `/verifications?${listQuery}` : "/verifications";
}

export function useListContext(listQuery: string) {
  const { filterParams, sort } = splitListQuery(new URLSearchParams(listQuery));
  const parsed = parseVerificationFilters(filterParams);
  return { filters: parsed.ok ? parsed.filters : null, sort };
}

export function VerificationNeighbours({ publicId, listQuery }: { publicId: string; listQuery: string }) {
  const t = useTranslations("verifications.neighbours");
  const { filters, sort } = useListContext(listQuery);
  const enabled = listQuery !== "" && filters !== null;
  const current = useVerifications(filters ?? {}, { enabled });
  const data = current.data;
  const items = data ? sortItems(data.items, sort, data.enrichment) : [];
  const index = items.findIndex((item) => item.publicId === publicId);
  const page = filters?.page ?? 1;
  const pages = data ? Math.max(1, Math.ceil(data.pagination.total / Math.max(1, data.pagination.perPage))) : 1;
  const atStart = index === 0 && page > 1 && data?.pagingAvailable === true;
  const atEnd = index === items.length - 1 && index >= 0 && page < pages && data?.pagingAvailable === true;
  const otherFilters = filters ? { ...filters, page: atStart ? page - 1 : page + 1 } : {};
  const other = useVerifications(otherFilters, { enabled: enabled && (atStart || atEnd) });
  const otherItems = other.data ? sortItems(other.data.items, sort, other.data.enrichment) : [];

  if (!enabled || index === -1) return null;
  const sameQuery = listQuery;
  const otherQuery = filters ? queryOf(otherFilters, sort) : "";
  const previous =
    index > 0
      ? { id: items[index - 1]!.publicId, query: sameQuery }
      : atStart && otherItems.length
        ? { id: otherItems.at(-1)!.publicId, query: otherQuery }
        : null;
  const next =
    index < items.length - 1
      ? { id: items[index + 1]!.publicId, query: sameQuery }
      : atEnd && otherItems[0]
        ? { id: otherItems[0].publicId, query: otherQuery }
        : null;
  const position = (page - 1) * (data?.pagination.perPage ?? 0) + index + 1;

  return (
    <nav aria-label={t("label")} className="flex flex-wrap items-center gap-3 text-sm" data-neighbours>
      {previous ? (
        <Link href={detailHref(previous.id, previous.query)} rel="prev" className="font-medium text-brand-800 underline underline-offset-2">
          ← {t("previous")}
        </Link>
      ) : (
        <span className="text-slate-600">← {t("previous")}</span>
      )}
      <span className="text-slate-700 tabular-nums">{t("position", { position, total: data?.pagination.total ?? items.length })}</span>
      {next ? (
        <Link href={detailHref(next.id, next.query)} rel="next" className="font-medium text-brand-800 underline underline-offset-2">
          {t("next")} →
        </Link>
      ) : (
        <span className="text-slate-600">{t("next")} →</span>
      )}
    </nav>
  );
}
