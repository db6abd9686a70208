import { useQuery, useQueryClient } from "@tanstack/react-query";

import { apiRequest, type ApiRequestError } from "@/lib/shared/api-client/api-request";
import { BACKGROUND_HEADERS } from "@/lib/shared/api-client/background";
import { useFallbackInterval } from "@/lib/shared/api-client/live";
import type { ChangeFeed, VerificationEventItem } from "@/lib/webhooks/types";

/*
 * What the service's webhooks recorded, read from the dashboard's own event store, never from the service.
 * The live stream (GET /api/events/stream, components/layout/live-updates.tsx) invalidates these keys as
 * changes arrive; the light poll every POLL_MS runs only as its fallback, while the stream cannot open or
 * keeps failing (`useFallbackInterval`). The polls are background requests (BACKGROUND_HEADER): they do not
 * keep an unattended session from its idle timeout.
 */

export const POLL_MS = 4_000;

export const verificationEventKeys = {
  all: ["verification-events"] as const,
  feed: () => [...verificationEventKeys.all, "feed"] as const,
  history: (publicId: string) => [...verificationEventKeys.all, "history", publicId] as const,
};

export function fetchChangeFeed(after: number | undefined, signal?: AbortSignal): Promise<ChangeFeed> {
  return apiRequest(after === undefined ? "/api/verification-events" : `/api/verification-events?after=${after}`, {
    signal,
    headers: BACKGROUND_HEADERS,
  });
}

export function fetchVerificationEvents(publicId: string, signal?: AbortSignal): Promise<{ events: VerificationEventItem[] }> {
  return apiRequest(`/api/verifications/${encodeURIComponent(publicId)}/events`, { signal, headers: BACKGROUND_HEADERS });
}

interface ChangesSeen {
  cursor: number;
  arrived: VerificationEventItem[];
}

/**
 * Changes recorded since the page opened. The first poll only learns the current cursor; later polls
 * bring what arrived after it, accumulated in the query's own data until `clear()` (the analyst chose to
 * show them). The cache entry goes with the page (gcTime 0), so a page opened later starts from then.
 */
export function useVerificationChanges({ intervalMs = POLL_MS }: { intervalMs?: number } = {}) {
  const queryClient = useQueryClient();
  const key = verificationEventKeys.feed();
  const query = useQuery<ChangesSeen, ApiRequestError>({
    queryKey: key,
    queryFn: async ({ signal }) => {
      const previous = queryClient.getQueryData<ChangesSeen>(key);
      const feed = await fetchChangeFeed(previous?.cursor, signal);
      return { cursor: feed.cursor, arrived: previous ? [...previous.arrived, ...feed.changes] : [] };
    },
    refetchInterval: useFallbackInterval(intervalMs),
    gcTime: 0,
  });
  return {
    arrived: query.data?.arrived ?? [],
    clear: () => queryClient.setQueryData<ChangesSeen>(key, (seen) => (seen ? { ...seen, arrived: [] } : seen)),
  };
}

/** A verification's event history, polled while its page is open. */
export function useVerificationEvents(publicId: string, { intervalMs = POLL_MS }: { intervalMs?: number } = {}) {
  return useQuery<{ events: VerificationEventItem[] }, ApiRequestError>({
    queryKey: verificationEventKeys.history(publicId),
    queryFn: ({ signal }) => fetchVerificationEvents(publicId, signal),
    refetchInterval: useFallbackInterval(intervalMs),
  });
}
