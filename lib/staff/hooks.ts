import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";

import type { StaffUserDto } from "@/lib/auth/types";
import type { ChangePasswordInput } from "@/lib/auth/validation";
import { apiRequest, type ApiRequestError } from "@/lib/shared/api-client/api-request";
import type { InviteStaffInput } from "@/lib/staff/rules";
import type { StaffListEntry } from "@/lib/staff/types";
import type { UpdateStaffInput } from "@/lib/staff/validation";

/*
 * Staff accounts in the browser: key factory, fetchers, one hook per query or mutation. The server
 * page prefetches `staffKeys.list()` with the same shape, so the hydrated cache is what the hook reads.
 */

export const staffKeys = {
  all: ["staff"] as const,
  list: () => [...staffKeys.all, "list"] as const,
};

export interface StaffListResponse {
  staff: StaffListEntry[];
}

export interface InviteStaffResponse {
  user: StaffUserDto;
  oneTimePassword: string;
}

export const fetchStaff = () => apiRequest<StaffListResponse>("/api/staff");
export const inviteStaff = (input: InviteStaffInput) => apiRequest<InviteStaffResponse>("/api/staff", { method: "POST", body: input });
export const updateStaff = (id: string, change: UpdateStaffInput) =>
  apiRequest<{ user: StaffUserDto }>(`/api/staff/${encodeURIComponent(id)}`, { method: "PATCH", body: change });
export const unlockStaffSignIn = (id: string) =>
  apiRequest<{ signIn: StaffListEntry["signIn"] }>(`/api/staff/${encodeURIComponent(id)}/unlock`, { method: "POST", body: {} });
export const changePassword = (input: ChangePasswordInput) => apiRequest<void>("/api/account/password", { method: "POST", body: input });

export function useStaffQuery() {
  return useQuery<StaffListResponse, ApiRequestError>({ queryKey: staffKeys.list(), queryFn: fetchStaff });
}

export function useInviteStaffMutation() {
  const queryClient = useQueryClient();
  return useMutation<InviteStaffResponse, ApiRequestError, InviteStaffInput>({
    mutationFn: inviteStaff,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: staffKeys.all }),
  });
}

export function useUpdateStaffMutation() {
  const queryClient = useQueryClient();
  return useMutation<{ user: StaffUserDto }, ApiRequestError, { id: string; change: UpdateStaffInput }>({
    mutationFn: ({ id, change }) => updateStaff(id, change),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: staffKeys.all }),
  });
}

export function useUnlockStaffSignInMutation() {
  const queryClient = useQueryClient();
  return useMutation<{ signIn: StaffListEntry["signIn"] }, ApiRequestError, { id: string }>({
    mutationFn: ({ id }) => unlockStaffSignIn(id),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: staffKeys.list() }),
  });
}

export function useChangePasswordMutation() {
  return useMutation<void, ApiRequestError, ChangePasswordInput>({ mutationFn: changePassword });
}
