import type { ConnectionResponse } from "@/lib/connections/types";
import type { CreateConnectionInput, UpdateConnectionInput } from "@/lib/connections/validation";
import { apiRequest } from "@/lib/shared/api-client/api-request";
import { invalidateTabCache } from "@/lib/shared/api-client/tab-cache";

/*
 * Connections' requests from the browser. The connections page draws the list on the server; adding, changing and
 * testing are requests after which the page is drawn again (components/ui/use-refreshing-request.ts), the shell's
 * connection switcher with it. The tab's cached list (./hooks.ts, which the forms that offer connections read) is
 * marked stale after each, settled or not, so a form opened next lists what the page shows.
 */

export const connectionKeys = {
  all: ["connections"] as const,
  list: () => [...connectionKeys.all, "list"] as const,
};

async function changing<T>(request: Promise<T>): Promise<T> {
  try {
    return await request;
  } finally {
    invalidateTabCache(connectionKeys.all);
  }
}

export const addConnection = (input: CreateConnectionInput) =>
  changing(apiRequest<ConnectionResponse>("/api/connections", { method: "POST", body: input }));

export const changeConnection = ({ id, change }: { id: string; change: UpdateConnectionInput }) =>
  changing(apiRequest<ConnectionResponse>(`/api/connections/${encodeURIComponent(id)}`, { method: "PATCH", body: change }));

export const testConnection = (id: string) =>
  changing(apiRequest<ConnectionResponse>(`/api/connections/${encodeURIComponent(id)}/test`, { method: "POST" }));
