import type { ConnectionResponse } from "@/lib/connections/types";
import type { CreateConnectionInput, UpdateConnectionInput } from "@/lib/connections/validation";
import { apiRequest } from "@/lib/shared/api-client/api-request";

/*
 * Connections' requests from the browser. The connections page draws the list on the server; adding, changing and
 * testing are requests after which the page is drawn again (components/ui/use-refreshing-request.ts), the shell's
 * connection switcher with it.
 */

export const addConnection = (input: CreateConnectionInput) =>
  apiRequest<ConnectionResponse>("/api/connections", { method: "POST", body: input });

export const changeConnection = ({ id, change }: { id: string; change: UpdateConnectionInput }) =>
  apiRequest<ConnectionResponse>(`/api/connections/${encodeURIComponent(id)}`, { method: "PATCH", body: change });

export const testConnection = (id: string) =>
  apiRequest<ConnectionResponse>(`/api/connections/${encodeURIComponent(id)}/test`, { method: "POST" });
