import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";

import type { StaffUserDto } from "@/lib/db/queries";
import type { ChangePasswordInput, InviteStaffInput, UpdateStaffInput } from "@/lib/validations/staff";

/*
 * Staff accounts in the browser: key factory, fetchers, one hook per query or mutation. The server
 * page prefetches `staffKeys.list()` with the same shape, so the hydrated cache is what the hook reads.
 */

export const staffKeys = {
  all: ["staff"] as const,
  list: () => [...staffKeys.all, "list"] as const,
};

export interface StaffListResponse {
  staff: StaffUserDto[];
}

export interface InviteStaffResponse {
  user: StaffUserDto;
  oneTimePassword: string;
}

/** A refused call, in the dashboard's error model (`{ error: { code, message, fields? } }`). */
export class StaffRequestError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly fields: string[] = [],
  ) {
    super(message);
    this.name = "StaffRequestError";
  }
}

async function call<T>(url: string, init: { method?: string; body?: unknown } = {}): Promise<T> {
  const response = await fetch(url, {
    method: init.method ?? "GET",
    credentials: "same-origin",
    cache: "no-store",
    headers: { accept: "application/json", ...(init.body === undefined ? {} : { "content-type": "application/json" }) },
    body: init.body === undefined ? undefined : JSON.stringify(init.body),
  });
  if (response.status === 204) return undefined as T;
  const body = (await response.json().catch(() => undefined)) as { error?: { code?: string; message?: string; fields?: string[] } } | undefined;
  if (!response.ok) {
    throw new StaffRequestError(response.status, body?.error?.code ?? "unknown", body?.error?.message ?? response.statusText, body?.error?.fields ?? []);
  }
  return body as T;
}

export const fetchStaff = () => call<StaffListResponse>("/api/staff");
export const inviteStaff = (input: InviteStaffInput) => call<InviteStaffResponse>("/api/staff", { method: "POST", body: input });
export const updateStaff = (id: string, change: UpdateStaffInput) =>
  call<{ user: StaffUserDto }>(`/api/staff/${encodeURIComponent(id)}`, { method: "PATCH", body: change });
export const changePassword = (input: ChangePasswordInput) => call<void>("/api/account/password", { method: "POST", body: input });

export function useStaffQuery() {
  return useQuery<StaffListResponse, StaffRequestError>({ queryKey: staffKeys.list(), queryFn: fetchStaff });
}

export function useInviteStaffMutation() {
  const queryClient = useQueryClient();
  return useMutation<InviteStaffResponse, StaffRequestError, InviteStaffInput>({
    mutationFn: inviteStaff,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: staffKeys.all }),
  });
}

export function useUpdateStaffMutation() {
  const queryClient = useQueryClient();
  return useMutation<{ user: StaffUserDto }, StaffRequestError, { id: string; change: UpdateStaffInput }>({
    mutationFn: ({ id, change }) => updateStaff(id, change),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: staffKeys.all }),
  });
}

export function useChangePasswordMutation() {
  return useMutation<void, StaffRequestError, ChangePasswordInput>({ mutationFn: changePassword });
}
