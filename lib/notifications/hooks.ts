import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";

import { apiRequest, type ApiRequestError } from "@/lib/shared/api-client/api-request";
import { BACKGROUND_HEADERS } from "@/lib/shared/api-client/background";
import { useLiveConnected } from "@/lib/shared/api-client/live";

import type { MarkReadResponse, NotificationsResponse } from "./types";
import type { MarkReadInput } from "./validation";

/*
 * The bell's data: one key, one fetcher, one hook per query or mutation. It polls every 30 s as a
 * background request (BACKGROUND_HEADER: not the member's activity); live updates invalidate
 * `notificationKeys.all` instead when the stream is open.
 */

export const NOTIFICATIONS_POLL_MS = 30_000;

export const notificationKeys = {
  all: ["notifications"] as const,
  list: () => [...notificationKeys.all, "list"] as const,
};

export const fetchNotifications = (signal?: AbortSignal) =>
  apiRequest<NotificationsResponse>("/api/notifications", { signal, headers: BACKGROUND_HEADERS });

export function useNotifications({ pollMs = NOTIFICATIONS_POLL_MS }: { pollMs?: number | false } = {}) {
  // The live stream's `notification` events invalidate the key; polling only while it is down.
  const live = useLiveConnected();
  return useQuery<NotificationsResponse, ApiRequestError>({
    queryKey: notificationKeys.list(),
    queryFn: ({ signal }) => fetchNotifications(signal),
    refetchInterval: live ? false : pollMs,
  });
}

export function useMarkNotificationsRead() {
  const client = useQueryClient();
  return useMutation<MarkReadResponse, ApiRequestError, MarkReadInput>({
    mutationFn: (body) => apiRequest<MarkReadResponse>("/api/notifications/read", { method: "POST", body }),
    onSettled: () => client.invalidateQueries({ queryKey: notificationKeys.all }),
  });
}
