import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";

import type { ConnectionListResponse, ConnectionResponse } from "@/lib/connections/types";
import type { CreateConnectionInput, UpdateConnectionInput } from "@/lib/connections/validation";
import { apiRequest } from "@/lib/shared/api-client/api-request";

/* Connections in the browser: the list is a query; adding, changing and testing are mutations that refresh it. */

export const connectionKeys = {
  all: ["connections"] as const,
  list: () => [...connectionKeys.all, "list"] as const,
};

export function useConnections() {
  return useQuery({
    queryKey: connectionKeys.list(),
    queryFn: ({ signal }) => apiRequest<ConnectionListResponse>("/api/connections", { signal }),
  });
}

function useConnectionMutation<I>(send: (input: I) => Promise<ConnectionResponse>) {
  const queryClient = useQueryClient();
  return useMutation({ mutationFn: send, onSettled: () => queryClient.invalidateQueries({ queryKey: connectionKeys.all }) });
}

export function useAddConnection() {
  return useConnectionMutation((input: CreateConnectionInput) =>
    apiRequest<ConnectionResponse>("/api/connections", { method: "POST", body: input }),
  );
}

export function useChangeConnection() {
  return useConnectionMutation(({ id, change }: { id: string; change: UpdateConnectionInput }) =>
    apiRequest<ConnectionResponse>(`/api/connections/${encodeURIComponent(id)}`, { method: "PATCH", body: change }),
  );
}

export function useTestConnection() {
  return useConnectionMutation((id: string) =>
    apiRequest<ConnectionResponse>(`/api/connections/${encodeURIComponent(id)}/test`, { method: "POST" }),
  );
}
