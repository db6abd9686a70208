import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";

import type { CreatedIntegrationResponse, IntegrationListResponse, RetiredIntegrationResponse } from "@/lib/integrations/types";
import type { CreateIntegrationInput, RetireIntegrationInput } from "@/lib/integrations/validation";
import { apiRequest } from "@/lib/shared/api-client/api-request";

/*
 * Integration keys in the browser. The list (metadata, and which keys can still be revealed) is a query;
 * creating, revealing and forgetting are mutations whose answers are never put in the query cache: the
 * key value lives only in the component that shows it. Retiring marks a key retired here (no call to the service).
 */

export const integrationKeys = {
  all: ["integrations"] as const,
  list: () => [...integrationKeys.all, "list"] as const,
};

export function fetchIntegrations(signal?: AbortSignal): Promise<IntegrationListResponse> {
  return apiRequest("/api/integrations", { signal });
}

export function postIntegration(input: CreateIntegrationInput): Promise<CreatedIntegrationResponse> {
  return apiRequest("/api/integrations", { method: "POST", body: input });
}

export function postRevealIntegrationKey(upstreamId: number): Promise<CreatedIntegrationResponse> {
  return apiRequest("/api/integrations/reveal", { method: "POST", body: { upstreamId } });
}

export function deleteRevealIntegrationKey(upstreamId: number): Promise<{ forgotten: number }> {
  return apiRequest("/api/integrations/reveal", { method: "DELETE", body: { upstreamId } });
}

export function postRetireIntegrationKey({
  upstreamId,
  ...body
}: RetireIntegrationInput & { upstreamId: number }): Promise<RetiredIntegrationResponse> {
  return apiRequest(`/api/integrations/${encodeURIComponent(String(upstreamId))}/retire`, { method: "POST", body });
}

export function useIntegrations({ enabled = true }: { enabled?: boolean } = {}) {
  return useQuery({ queryKey: integrationKeys.list(), queryFn: ({ signal }) => fetchIntegrations(signal), enabled });
}

export function useCreateIntegration() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: postIntegration,
    // Settled, not only success: after an unknown outcome the list may hold the key after all.
    onSettled: () => queryClient.invalidateQueries({ queryKey: integrationKeys.all }),
  });
}

export function useRevealIntegrationKey() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: postRevealIntegrationKey,
    // A refused reveal means the window passed: the list of revealable keys changed.
    onError: () => queryClient.invalidateQueries({ queryKey: integrationKeys.all }),
  });
}

export function useForgetIntegrationKey() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: deleteRevealIntegrationKey,
    onSettled: () => queryClient.invalidateQueries({ queryKey: integrationKeys.all }),
  });
}

export function useRetireIntegrationKey() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: postRetireIntegrationKey,
    // Settled: a 409 means another admin retired it meanwhile, which the list should show.
    onSettled: () => queryClient.invalidateQueries({ queryKey: integrationKeys.all }),
  });
}
