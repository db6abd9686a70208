import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";

import type { SessionDto } from "@/lib/account/types";
import { apiRequest, type ApiRequestError } from "@/lib/shared/api-client/api-request";
import { staffKeys } from "@/lib/staff/hooks";
import type { StaffConnectionsResponse } from "@/lib/staff/types";

/*
 * A member's sign-in security as an admin manages it: their live sessions (see, end all), the reset of their
 * second factors, single sign-on only. Key factory, fetchers and one hook each, like lib/staff/hooks.ts
 * (where they belong; kept here while that file is outside this change's area). The keys sit under
 * `staffKeys.all`.
 */

/** A member's live session as an admin sees it: the member's own view of it, less "this session". */
export type StaffSessionItem = Omit<SessionDto, "current">;

export const staffSecurityKeys = {
  sessions: (id: string) => [...staffKeys.all, "sessions", id] as const,
  connections: (id: string) => [...staffKeys.all, "connections", id] as const,
};

const memberUrl = (id: string) => `/api/staff/${encodeURIComponent(id)}`;

// The DELETEs send an empty JSON object: the route kit refuses (415) a write whose body is not declared JSON,
// and a browser's DELETE without a body still reaches it as one with an unknown length.

export const fetchStaffSessions = (id: string, signal?: AbortSignal) =>
  apiRequest<{ sessions: StaffSessionItem[] }>(`${memberUrl(id)}/sessions`, { signal });
export const endStaffSessions = (id: string) => apiRequest<{ ended: number }>(`${memberUrl(id)}/sessions`, { method: "DELETE", body: {} });

export function useStaffSessionsQuery(id: string, { enabled = true }: { enabled?: boolean } = {}) {
  return useQuery<{ sessions: StaffSessionItem[] }, ApiRequestError>({
    queryKey: staffSecurityKeys.sessions(id),
    queryFn: ({ signal }) => fetchStaffSessions(id, signal),
    enabled,
    // Sessions come and go: read them afresh each time the dialog opens.
    staleTime: 0,
    gcTime: 0,
  });
}

export function useEndStaffSessionsMutation() {
  const queryClient = useQueryClient();
  return useMutation<{ ended: number }, ApiRequestError, { id: string }>({
    mutationFn: ({ id }) => endStaffSessions(id),
    onSuccess: (_, { id }) => queryClient.invalidateQueries({ queryKey: staffSecurityKeys.sessions(id) }),
  });
}

/** Which connections a member may use, and what each withholds (lib/connections/server/access.ts). */
export function useStaffConnectionsQuery(id: string, { enabled = true }: { enabled?: boolean } = {}) {
  return useQuery<StaffConnectionsResponse, ApiRequestError>({
    queryKey: staffSecurityKeys.connections(id),
    queryFn: ({ signal }) => apiRequest<StaffConnectionsResponse>(`${memberUrl(id)}/connections`, { signal }),
    enabled,
    staleTime: 0,
  });
}

export function useSetStaffConnectionsMutation() {
  const queryClient = useQueryClient();
  return useMutation<StaffConnectionsResponse, ApiRequestError, { id: string; connections: StaffConnectionsResponse["connections"] }>({
    mutationFn: ({ id, connections }) =>
      apiRequest<StaffConnectionsResponse>(`${memberUrl(id)}/connections`, { method: "PUT", body: { connections } }),
    onSuccess: (data, { id }) => queryClient.setQueryData(staffSecurityKeys.connections(id), data),
  });
}
