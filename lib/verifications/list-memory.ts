import type { Pagination, Verification } from "@/lib/upstream/model/verification";

import type { VerificationListResponse } from "./types";

/*
 * The views the list drew in this tab, by their address query: the verifications in the order shown (its sort
 * applied) and the paging. The detail's previous and next read the view the analyst came from here rather than
 * asking the service for it again (components/verifications/verification-neighbours.tsx). Ids only: nothing personal
 * is kept, and it goes with the tab. The last few views only.
 */

export interface RememberedListView {
  ids: string[];
  pagination: Pagination;
  pagingAvailable: boolean;
}

/** A page of the list as the list shows it: `items` in the order shown, with the page's paging. */
export function listViewOf(
  items: Verification[],
  page: Pick<VerificationListResponse, "pagination" | "pagingAvailable">,
): RememberedListView {
  return { ids: items.map((item) => item.publicId), pagination: page.pagination, pagingAvailable: page.pagingAvailable };
}

const KEPT = 10;
const views = new Map<string, RememberedListView>();

export function rememberListView(query: string, view: RememberedListView): void {
  views.delete(query);
  views.set(query, view);
  while (views.size > KEPT) views.delete(views.keys().next().value!);
}

export function recalledListView(query: string): RememberedListView | undefined {
  return views.get(query);
}
