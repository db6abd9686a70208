"use client";

import { useTranslations } from "next-intl";
import { useMemo } from "react";

import { AppLink as Link } from "@/components/ui/app-link";
import { useVerifications } from "@/lib/verifications/hooks";
import { listViewOf, recalledListView, type RememberedListView } from "@/lib/verifications/list-memory";
import { listQueryOf, parseListQuery } from "@/lib/verifications/list-query";
import { sortItems, type ListSort } from "@/lib/verifications/sorting";
import type { VerificationListResponse } from "@/lib/verifications/types";

import { detailHref } from "./detail-href";

/*
 * Previous / next verification of the list the analyst came from, in the order it was shown (filters and
 * on-screen sort travel in the detail's `list` parameter). The list's page is the one the list drew in this tab
 * when the analyst came from it (lib/verifications/list-memory.ts), else read from the service; past the page's
 * edge, the adjacent page is read from the service.
 */

/** A page the service answered, as the list shows it: in the order of `sort`. */
const viewOf = (data: VerificationListResponse, sort: ListSort | null): RememberedListView =>
  listViewOf(sortItems(data.items, sort, data.enrichment), data);

function useListContext(listQuery: string) {
  const parsed = parseListQuery(new URLSearchParams(listQuery));
  return parsed.ok ? parsed : { filters: null, sort: null };
}

export function VerificationNeighbours({ publicId, listQuery }: { publicId: string; listQuery: string }) {
  const t = useTranslations("verifications.neighbours");
  const { filters, sort } = useListContext(listQuery);
  const enabled = listQuery !== "" && filters !== null;
  // The view the list drew in this tab, if the analyst came from it; otherwise the service's, as the list would show it.
  // Filled in the browser only, and empty after a document load: the server and the hydration agree.
  const remembered = useMemo(() => recalledListView(listQuery), [listQuery]);
  const current = useVerifications(filters ?? {}, { enabled: enabled && !remembered });
  const view = remembered ?? (current.data ? viewOf(current.data, sort) : undefined);
  const ids = view?.ids ?? [];
  const index = ids.indexOf(publicId);
  const page = filters?.page ?? 1;
  const pages = view ? Math.max(1, Math.ceil(view.pagination.total / Math.max(1, view.pagination.perPage))) : 1;
  const atStart = index === 0 && page > 1 && view?.pagingAvailable === true;
  const atEnd = index === ids.length - 1 && index >= 0 && page < pages && view?.pagingAvailable === true;
  const otherFilters = filters ? { ...filters, page: atStart ? page - 1 : page + 1 } : {};
  const other = useVerifications(otherFilters, { enabled: enabled && (atStart || atEnd) });
  const otherIds = other.data ? viewOf(other.data, sort).ids : [];

  if (!enabled || index === -1) return null;
  const sameQuery = listQuery;
  const otherQuery = filters ? listQueryOf(otherFilters, sort) : "";
  const previous =
    index > 0 ? { id: ids[index - 1]!, query: sameQuery } : atStart && otherIds.length ? { id: otherIds.at(-1)!, query: otherQuery } : null;
  const next =
    index < ids.length - 1
      ? { id: ids[index + 1]!, query: sameQuery }
      : atEnd && otherIds[0]
        ? { id: otherIds[0], query: otherQuery }
        : null;
  const position = (page - 1) * (view?.pagination.perPage ?? 0) + index + 1;

  return (
    <nav aria-label={t("label")} className="flex flex-wrap items-center gap-3 text-sm" data-neighbours>
      {previous ? (
        <Link href={detailHref(previous.id, previous.query)} rel="prev" className="font-medium text-brand-800 underline underline-offset-2">
          ← {t("previous")}
        </Link>
      ) : (
        <span className="text-slate-600">← {t("previous")}</span>
      )}
      <span className="text-slate-700 tabular-nums">{t("position", { position, total: view?.pagination.total ?? ids.length })}</span>
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
