import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";

import { apiRequest, type ApiRequestError } from "@/lib/shared/api-client/api-request";
import { publishLive } from "@/lib/shared/api-client/live";

// A member's availability in the browser (issue 23): one key, one hook per query or mutation.

export const routingKeys = {
  availability: () => ["account", "availability"] as const,
};

export function useAvailability() {
  return useQuery<{ away: boolean }, ApiRequestError>({
    queryKey: routingKeys.availability(),
    queryFn: ({ signal }) => apiRequest("/api/account/availability", { signal }),
  });
}

export function useSetAvailability() {
  const client = useQueryClient();
  // The cases and the monitoring alerts handed back, and how many of each were auto-assigned again.
  type Released = { away: boolean; released: number; reassigned: number; alertsReleased: number; alertsReassigned: number };
  return useMutation<Released, ApiRequestError, boolean>({
    mutationFn: (away) => apiRequest("/api/account/availability", { method: "PUT", body: { away } }),
    // The cases handed back change the views on screen (the queue): they read again now, not only when the live
    // stream says so (case.unassigned), which a tab polling without the stream would hear late.
    onSuccess: () => publishLive(null),
    onSettled: () => client.invalidateQueries({ queryKey: routingKeys.availability() }),
  });
}
