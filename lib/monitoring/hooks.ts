import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";

import type { AlertNote, AlertOutcome, MonitoringAlertList, ScreeningBudget, ScreeningRunResult } from "@/lib/monitoring/types";
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

export const alertKeys = {
  list: (status: "open" | "closed", queueId: string) => ["monitoring", "alerts", status, queueId] as const,
  notes: (id: string) => ["monitoring", "notes", id] as const,
};

/** The alerts, of one of the team's queues when `queueId` is not "" (all of them otherwise). */
export function useMonitoringAlerts(status: "open" | "closed", queueId = "") {
  const query = new URLSearchParams({ status });
  if (queueId) query.set("queue_id", queueId);
  return useQuery<MonitoringAlertList, ApiRequestError>({
    queryKey: alertKeys.list(status, queueId),
    queryFn: ({ signal }) => apiRequest(`/api/monitoring/alerts?${query.toString()}`, { signal }),
  });
}

export function useAlertNotes(id: string) {
  return useQuery<{ notes: AlertNote[] }, ApiRequestError>({
    queryKey: alertKeys.notes(id),
    queryFn: ({ signal }) => apiRequest(`/api/monitoring/alerts/${encodeURIComponent(id)}/notes`, { signal }),
  });
}

/** A note on the alert; its notes are read again after. */
export function useAddAlertNote(id: string) {
  const client = useQueryClient();
  return useMutation<{ id: number; at: string }, ApiRequestError, { text: string }>({
    mutationFn: (body) => apiRequest(`/api/monitoring/alerts/${encodeURIComponent(id)}/notes`, { method: "POST", body }),
    onSettled: () => client.invalidateQueries({ queryKey: alertKeys.notes(id) }),
  });
}

/** Taking an alert, or recording its outcome: the queue is read again after either. */
export function useAlertAction() {
  const client = useQueryClient();
  return useMutation<unknown, ApiRequestError, { id: string; action: "take" } | { id: string; action: "decide"; outcome: AlertOutcome }>({
    mutationFn: (input) =>
      input.action === "take"
        ? apiRequest(`/api/monitoring/alerts/${encodeURIComponent(input.id)}/assignment`, { method: "POST", body: {} })
        : apiRequest(`/api/monitoring/alerts/${encodeURIComponent(input.id)}/outcome`, {
            method: "POST",
            body: { outcome: input.outcome },
          }),
    onSettled: () => client.invalidateQueries({ queryKey: ["monitoring", "alerts"] }),
  });
}
