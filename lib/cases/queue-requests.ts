import type { BulkInput } from "@/lib/cases/routing-validation";
import type { BulkResult, CaseQueueResponse } from "@/lib/cases/types";
import type { QueueQuery } from "@/lib/cases/validation";
import { apiRequestWhenSent } from "@/lib/shared/api-client/api-request-when-sent";
import { BACKGROUND_HEADERS } from "@/lib/shared/api-client/background";

/*
 * The case queue's requests from the browser. The queue is drawn from what the server read (app/(dashboard)/cases/
 * page.tsx); after a claim, a bulk action, a sync or a live event it reads its view again through GET /api/cases
 * (components/cases/use-queue-data.ts). No react-query here: the queue's first load carries no client data cache; and
 * the API client comes with the first request (the first paint sends none).
 */

/** The queue's view as its address gives it: tab, sort, page, filters (and the page size when the address names one). */
export type QueueParams = Pick<QueueQuery, "queue" | "sort" | "page"> &
  Partial<Pick<QueueQuery, "flag" | "overdue" | "age" | "closed_from" | "closed_to" | "disagreement" | "per_page" | "queue_id">>;

/** The query of a view (its address's, and GET /api/cases's): the values set, in the order given. */
export function queueQueryOf(params: Partial<QueueParams>): string {
  const search = new URLSearchParams();
  for (const [key, value] of Object.entries(params)) if (value !== undefined && value !== null) search.set(key, String(value));
  return search.toString();
}

/** The view again; `background` for a read nobody asked for (a live event): not the member's activity. */
export const fetchQueue = (params: QueueParams, { background = false }: { background?: boolean } = {}) =>
  apiRequestWhenSent<CaseQueueResponse>(`/api/cases?${queueQueryOf(params)}`, { headers: background ? BACKGROUND_HEADERS : undefined });

/** The queue's `a`: the case to the member who pressed it. */
export const claimCase = (publicId: string) =>
  apiRequestWhenSent<{ assigneeId: string | null }>(`/api/cases/${encodeURIComponent(publicId)}/assignment`, {
    method: "POST",
    body: { assignee: "me" },
  });

/** The bulk bar: each case done on its own by the server, the answer saying which were refused and why. */
export const bulkCases = (body: BulkInput) => apiRequestWhenSent<BulkResult>("/api/cases/bulk", { method: "POST", body });

export interface SyncAnswer {
  ran: boolean;
  seen: number;
  opened: number;
  closed: number;
}

/** Reads the service's review verifications into cases now (cases.assign). */
export const syncCases = () => apiRequestWhenSent<SyncAnswer>("/api/cases/sync", { method: "POST" });
