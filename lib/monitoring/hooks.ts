import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";

import type { ScreeningBudget, ScreeningRunResult } from "@/lib/monitoring/types";
import { apiRequest, type ApiRequestError } from "@/lib/shared/api-client/api-request";

// The ongoing screening in the browser: its budget (GET, PUT /api/monitoring/settings) and a run now.

export const monitoringKeys = {
  budget: () => ["monitoring", "budget"] as const,
};

export function useScreeningBudget() {
  return useQuery<ScreeningBudget, ApiRequestError>({
    queryKey: monitoringKeys.budget(),
    queryFn: ({ signal }) => apiRequest("/api/monitoring/settings", { signal }),
  });
}

export function useSaveScreeningBudget() {
  const client = useQueryClient();
  return useMutation<ScreeningBudget, ApiRequestError, { dailyBudget: number }>({
    mutationFn: (body) => apiRequest("/api/monitoring/settings", { method: "PUT", body }),
    onSuccess: (data) => client.setQueryData(monitoringKeys.budget(), data),
  });
}

/** Runs the screening now; the budget is read again after it (the run spent some). */
export function useRunScreening() {
  const client = useQueryClient();
  return useMutation<ScreeningRunResult, ApiRequestError, void>({
    mutationFn: () => apiRequest("/api/monitoring/run", { method: "POST", body: {} }),
    onSettled: () => client.invalidateQueries({ queryKey: monitoringKeys.budget() }),
  });
}
