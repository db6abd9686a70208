import { keepPreviousData, useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useCallback } from "react";

import type { CaseDetailResponse, CaseQueueResponse, ReasonCatalogue, ReverificationResponse } from "@/lib/cases/types";
import type { ConfirmationInput, OutcomeInput, QueueQuery, ReverificationInput } from "@/lib/cases/validation";
import { apiRequest, type ApiRequestError } from "@/lib/shared/api-client/api-request";
import { AHEAD_HEADERS } from "@/lib/shared/api-client/background";

/*
 * Case work in the browser: one key factory, one fetcher per route, one hook per query or mutation. A case
 * action invalidates that case's own key and the queues (by prefix), never the whole cache.
 */

export type QueueParams = Pick<QueueQuery, "queue" | "sort" | "page"> &
  Partial<Pick<QueueQuery, "flag" | "overdue" | "age" | "closed_from" | "closed_to" | "disagreement" | "per_page" | "queue_id">>;

export const caseKeys = {
  all: ["cases"] as const,
  queues: () => [...caseKeys.all, "queue"] as const,
  queue: (params: QueueParams) => [...caseKeys.queues(), params] as const,
  /** A case; `context` (the queue it is read in) only picks its next and previous. Invalidated by the id prefix. */
  detail: (publicId: string, context?: string) =>
    context ? ([...caseKeys.all, "detail", publicId, context] as const) : ([...caseKeys.all, "detail", publicId] as const),
  reasons: () => [...caseKeys.all, "reasons"] as const,
  /** The panel's actions on a case (claim, outcome, note, confirmation): the case page keeps keys while one is in flight. */
  work: (publicId: string) => [...caseKeys.all, "work", publicId] as const,
};

export function casesApiUrl(params: QueueParams): string {
  const search = new URLSearchParams();
  for (const [key, value] of Object.entries(params)) if (value !== undefined && value !== null) search.set(key, String(value));
  return `/api/cases?${search.toString()}`;
}

export const fetchQueue = (params: QueueParams, signal?: AbortSignal) => apiRequest<CaseQueueResponse>(casesApiUrl(params), { signal });
/** `ahead`: a case the member has not opened yet (the queue's next), recorded as read ahead (AHEAD_HEADER). */
export const fetchCase = (publicId: string, signal?: AbortSignal, context = "", { ahead = false }: { ahead?: boolean } = {}) =>
  apiRequest<CaseDetailResponse>(`/api/cases/${encodeURIComponent(publicId)}${context ? `?${context}` : ""}`, {
    signal,
    headers: ahead ? AHEAD_HEADERS : undefined,
  });

export function useCaseQueue(params: QueueParams) {
  return useQuery<CaseQueueResponse, ApiRequestError>({
    queryKey: caseKeys.queue(params),
    queryFn: ({ signal }) => fetchQueue(params, signal),
    placeholderData: keepPreviousData,
  });
}

/** The case of a verification (`case: null` when it has none). */
export function useCase(publicId: string, context = "") {
  return useQuery<CaseDetailResponse, ApiRequestError>({
    queryKey: caseKeys.detail(publicId, context),
    queryFn: ({ signal }) => fetchCase(publicId, signal, context),
  });
}

/**
 * Reads a case (in its queue) ahead of the analyst, so "next" opens with its data already here: a read ahead,
 * not the member's activity nor their opening of it. A refused read leaves nothing behind, so the case page
 * asks again itself when opened (a query in error is not fetched again on mount).
 */
export function usePrefetchCase() {
  const client = useQueryClient();
  return useCallback(
    async (publicId: string, context = "") => {
      const queryKey = caseKeys.detail(publicId, context);
      await client.prefetchQuery({
        queryKey,
        queryFn: ({ signal }) => fetchCase(publicId, signal, context, { ahead: true }),
        staleTime: 30_000,
      });
      if (client.getQueryState(queryKey)?.status === "error") client.removeQueries({ queryKey, exact: true });
    },
    [client],
  );
}

export function useReasons() {
  return useQuery<ReasonCatalogue, ApiRequestError>({
    queryKey: caseKeys.reasons(),
    queryFn: ({ signal }) => apiRequest("/api/cases/reasons", { signal }),
    staleTime: Infinity,
  });
}

function useCaseMutation<I, O>(publicId: string, path: string) {
  const client = useQueryClient();
  return useMutation<O, ApiRequestError, I>({
    mutationKey: caseKeys.work(publicId),
    mutationFn: (body) => apiRequest<O>(`/api/cases/${encodeURIComponent(publicId)}${path}`, { method: "POST", body }),
    // Refused or not, the case may have changed (a 409 means someone else holds it): read it again.
    onSettled: async () => {
      await Promise.all([
        client.invalidateQueries({ queryKey: caseKeys.detail(publicId) }),
        client.invalidateQueries({ queryKey: caseKeys.queues() }),
      ]);
    },
  });
}

export const useAssignCase = (publicId: string) =>
  useCaseMutation<{ assignee: "me" | string | null }, { assigneeId: string | null }>(publicId, "/assignment");
export const useAddNote = (publicId: string) => useCaseMutation<{ text: string }, { id: number; at: string }>(publicId, "/notes");
export const useRecordOutcome = (publicId: string) => useCaseMutation<OutcomeInput, { outcomeState: string }>(publicId, "/outcome");
export const useConfirmOutcome = (publicId: string) =>
  useCaseMutation<ConfirmationInput, { outcomeState: string }>(publicId, "/outcome/confirm");

/** A re-verification from the case: the new verification's address and QR come back once (never cached). */
export const useRequestReverification = (publicId: string) =>
  useCaseMutation<ReverificationInput, ReverificationResponse>(publicId, "/reverification");

/** Assign from the queue (the `a` shortcut), where the case id varies. */
export function useClaimFromQueue() {
  const client = useQueryClient();
  return useMutation<{ assigneeId: string | null }, ApiRequestError, string>({
    mutationFn: (publicId) =>
      apiRequest(`/api/cases/${encodeURIComponent(publicId)}/assignment`, { method: "POST", body: { assignee: "me" } }),
    onSettled: async (_data, _error, publicId) => {
      await Promise.all([
        client.invalidateQueries({ queryKey: caseKeys.detail(publicId) }),
        client.invalidateQueries({ queryKey: caseKeys.queues() }),
      ]);
    },
  });
}

export function useSyncCases() {
  const client = useQueryClient();
  return useMutation<{ ran: boolean; seen: number; opened: number; closed: number }, ApiRequestError, void>({
    mutationFn: () => apiRequest("/api/cases/sync", { method: "POST" }),
    onSuccess: () => client.invalidateQueries({ queryKey: caseKeys.queues() }),
  });
}
