import type { RoleInput } from "@/lib/auth/permissions";
import type { RoleDto } from "@/lib/roles/types";
import { apiRequest } from "@/lib/shared/api-client/api-request";

/*
 * Roles' requests from the browser. The page draws the roles and the permission catalogue on the server; creating,
 * editing and retiring a custom role are requests after which the page is drawn again
 * (components/ui/use-refreshing-request.ts).
 */

export const createRole = (input: RoleInput) => apiRequest<{ role: RoleDto }>("/api/roles", { method: "POST", body: input });
export const updateRole = ({ id, change }: { id: string; change: Partial<RoleInput> }) =>
  apiRequest<{ role: RoleDto }>(`/api/roles/${encodeURIComponent(id)}`, { method: "PATCH", body: change });
export const retireRole = ({ id }: { id: string }) =>
  apiRequest<{ retired: string }>(`/api/roles/${encodeURIComponent(id)}`, { method: "DELETE" });
