import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";

import type { BulkInput } from "@/lib/cases/routing-validation";
import type { BulkResult, RoutingConfig } from "@/lib/cases/types";
import { apiRequest, type ApiRequestError } from "@/lib/shared/api-client/api-request";

import { caseKeys } from "./hooks";

// Routing, bulk actions and availability in the browser (issue 23): one key, one hook per query or mutation.

export const routingKeys = {
  routing: () => [...caseKeys.all, "routing"] as const,
  availability: () => ["account", "availability"] as const,
};

export function useAvailability() {
  return useQuery<{ away: boolean }, ApiRequestError>({
    queryKey: routingKeys.availability(),
    queryFn: ({ signal }) => apiRequest("/api/account/availability", { signal }),
  });
}

export function useRouting(enabled = true) {
  return useQuery<RoutingConfig, ApiRequestError>({
    queryKey: routingKeys.routing(),
    queryFn: ({ signal }) => apiRequest("/api/cases/routing", { signal }),
    enabled,
  });
}

export function useBulkCases() {
  const client = useQueryClient();
  return useMutation<BulkResult, ApiRequestError, BulkInput>({
    mutationFn: (body) => apiRequest("/api/cases/bulk", { method: "POST", body }),
    onSettled: () => client.invalidateQueries({ queryKey: caseKeys.queues() }),
  });
}

export function useSetAvailability() {
  const client = useQueryClient();
  // The cases and the monitoring alerts handed back, and how many of each were auto-assigned again.
  type Released = { away: boolean; released: number; reassigned: number; alertsReleased: number; alertsReassigned: number };
  return useMutation<Released, ApiRequestError, boolean>({
    mutationFn: (away) => apiRequest("/api/account/availability", { method: "PUT", body: { away } }),
    onSettled: () =>
      Promise.all([
        client.invalidateQueries({ queryKey: caseKeys.queues() }),
        client.invalidateQueries({ queryKey: routingKeys.availability() }),
      ]),
  });
}
