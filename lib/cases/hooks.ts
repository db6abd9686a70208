import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useCallback } from "react";

import type { CaseDetailResponse, ReasonCatalogue, ReverificationResponse } from "@/lib/cases/types";
import type { ConfirmationInput, OutcomeInput, ReverificationInput } from "@/lib/cases/validation";
import { apiRequest, type ApiRequestError } from "@/lib/shared/api-client/api-request";
import { AHEAD_HEADERS } from "@/lib/shared/api-client/background";

/*
 * Case work on the case page: one key factory, one fetcher per route, one hook per query or mutation. A case
 * action invalidates that case's own key (by prefix), never the whole cache. The queue keeps no cache: it reads its
 * view itself (lib/cases/queue-requests.ts).
 */

export const caseKeys = {
  all: ["cases"] as const,
  /** A case; `context` (the queue it is read in) only picks its next and previous. Invalidated by the id prefix. */
  detail: (publicId: string, context?: string) =>
    context ? ([...caseKeys.all, "detail", publicId, context] as const) : ([...caseKeys.all, "detail", publicId] as const),
  reasons: () => [...caseKeys.all, "reasons"] as const,
  /** The panel's actions on a case (claim, outcome, note, confirmation): the case page keeps keys while one is in flight. */
  work: (publicId: string) => [...caseKeys.all, "work", publicId] as const,
};

/** `ahead`: a case the member has not opened yet (the queue's next), recorded as read ahead (AHEAD_HEADER). */
export const fetchCase = (publicId: string, signal?: AbortSignal, context = "", { ahead = false }: { ahead?: boolean } = {}) =>
  apiRequest<CaseDetailResponse>(`/api/cases/${encodeURIComponent(publicId)}${context ? `?${context}` : ""}`, {
    signal,
    headers: ahead ? AHEAD_HEADERS : undefined,
  });

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
    onSettled: () => client.invalidateQueries({ queryKey: caseKeys.detail(publicId) }),
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
