import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";

import type { AlertNote, AlertOutcome, MonitoringAlertList } from "@/lib/monitoring/types";
import { apiRequest, type ApiRequestError } from "@/lib/shared/api-client/api-request";

// The monitoring alerts in the browser (the queue's alerts, their notes, taking one and its outcome). The screening's
// settings are /admin/cases's requests (./requests.ts).

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
