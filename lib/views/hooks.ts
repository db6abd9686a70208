import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";

import { apiRequest, type ApiRequestError } from "@/lib/shared/api-client/api-request";

import type { SavedView } from "./types";
import type { SaveViewInput } from "./validation";

// Saved views in the browser: one key, one fetcher, one hook per query or mutation; a change invalidates the
// views' own key only.

export const viewKeys = {
  all: ["views"] as const,
  list: () => [...viewKeys.all, "list"] as const,
};

export const fetchViews = (signal?: AbortSignal) => apiRequest<{ views: SavedView[] }>("/api/views", { signal });

export function useSavedViews() {
  return useQuery<{ views: SavedView[] }, ApiRequestError>({
    queryKey: viewKeys.list(),
    queryFn: ({ signal }) => fetchViews(signal),
    staleTime: 5 * 60_000,
  });
}

export function useSaveView() {
  const client = useQueryClient();
  return useMutation<{ view: SavedView }, ApiRequestError, SaveViewInput>({
    mutationFn: (body) => apiRequest<{ view: SavedView }>("/api/views", { method: "POST", body }),
    onSuccess: () => client.invalidateQueries({ queryKey: viewKeys.all }),
  });
}

export function useDeleteView() {
  const client = useQueryClient();
  return useMutation<{ deleted: string }, ApiRequestError, string>({
    mutationFn: (id) => apiRequest<{ deleted: string }>(`/api/views/${encodeURIComponent(id)}`, { method: "DELETE" }),
    onSettled: () => client.invalidateQueries({ queryKey: viewKeys.all }),
  });
}
