import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";

import type { RoleInput } from "@/lib/auth/permissions";
import type { PermissionCatalogue, RoleDto } from "@/lib/roles/types";
import { apiRequest, type ApiRequestError } from "@/lib/shared/api-client/api-request";
import { staffKeys } from "@/lib/staff/hooks";

/*
 * Roles in the browser: key factory, fetchers, one hook per query or mutation. The server page prefetches
 * `roleKeys.list()` and `roleKeys.catalogue()` with the same shapes.
 */

export const roleKeys = {
  all: ["roles"] as const,
  list: () => [...roleKeys.all, "list"] as const,
  catalogue: () => [...roleKeys.all, "catalogue"] as const,
};

export interface RoleListResponse {
  roles: RoleDto[];
}

export const fetchRoles = () => apiRequest<RoleListResponse>("/api/roles");
export const fetchPermissionCatalogue = () => apiRequest<PermissionCatalogue>("/api/permissions");
export const createRole = (input: RoleInput) => apiRequest<{ role: RoleDto }>("/api/roles", { method: "POST", body: input });
export const updateRole = (id: string, change: Partial<RoleInput>) =>
  apiRequest<{ role: RoleDto }>(`/api/roles/${encodeURIComponent(id)}`, { method: "PATCH", body: change });
export const retireRole = (id: string) => apiRequest<{ retired: string }>(`/api/roles/${encodeURIComponent(id)}`, { method: "DELETE" });

export function useRolesQuery() {
  return useQuery<RoleListResponse, ApiRequestError>({ queryKey: roleKeys.list(), queryFn: fetchRoles });
}

export function usePermissionCatalogueQuery() {
  return useQuery<PermissionCatalogue, ApiRequestError>({
    queryKey: roleKeys.catalogue(),
    queryFn: fetchPermissionCatalogue,
    staleTime: Infinity,
  });
}

function useRoleMutation<T, V>(mutationFn: (variables: V) => Promise<T>) {
  const queryClient = useQueryClient();
  return useMutation<T, ApiRequestError, V>({
    mutationFn,
    // Member counts and role names show on the staff page too.
    onSuccess: () =>
      Promise.all([
        queryClient.invalidateQueries({ queryKey: roleKeys.list() }),
        queryClient.invalidateQueries({ queryKey: staffKeys.all }),
      ]),
  });
}

export const useCreateRoleMutation = () => useRoleMutation((input: RoleInput) => createRole(input));
export const useUpdateRoleMutation = () =>
  useRoleMutation(({ id, change }: { id: string; change: Partial<RoleInput> }) => updateRole(id, change));
export const useRetireRoleMutation = () => useRoleMutation(({ id }: { id: string }) => retireRole(id));
