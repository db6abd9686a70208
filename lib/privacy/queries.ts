import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";

import { apiRequest } from "../shared/api-client/api-request";
import type { ErasureListResponse, ErasureResponse } from "./erasure";

/*
 * Erasure requests in the browser (/admin/privacy). Asking and confirming need a fresh second factor: a
 * refusal opens the step-up dialog and the same request is sent again (lib/shared/api-client/step-up.ts).
 * Every outcome, refused ones too, reloads the list: a 409 means someone else decided first.
 */

export const erasureKeys = {
  all: ["privacy", "erasures"] as const,
  list: () => [...erasureKeys.all, "list"] as const,
};

export function fetchErasures(signal?: AbortSignal): Promise<ErasureListResponse> {
  return apiRequest("/api/privacy/erasures", { signal });
}

export function postErasure(input: { cpf: string; reason: string }): Promise<ErasureResponse> {
  return apiRequest("/api/privacy/erasures", { method: "POST", body: input });
}

export function postErasureDecision({ id, decision }: { id: string; decision: "confirm" | "cancel" }): Promise<ErasureResponse> {
  return apiRequest(`/api/privacy/erasures/${encodeURIComponent(id)}/${decision}`, { method: "POST" });
}

export function useErasures({ enabled = true }: { enabled?: boolean } = {}) {
  return useQuery({ queryKey: erasureKeys.list(), queryFn: ({ signal }) => fetchErasures(signal), enabled, retry: false });
}

export function useRequestErasure() {
  const queryClient = useQueryClient();
  return useMutation({ mutationFn: postErasure, onSettled: () => queryClient.invalidateQueries({ queryKey: erasureKeys.all }) });
}

export function useDecideErasure() {
  const queryClient = useQueryClient();
  return useMutation({ mutationFn: postErasureDecision, onSettled: () => queryClient.invalidateQueries({ queryKey: erasureKeys.all }) });
}
