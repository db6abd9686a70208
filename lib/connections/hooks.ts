import { useQuery } from "@tanstack/react-query";

import type { ConnectionListResponse } from "@/lib/connections/types";
import { apiRequest } from "@/lib/shared/api-client/api-request";

import { connectionKeys } from "./requests";

/*
 * The connections as a query, for the forms that offer them (a verification's flow, a member's connections). The
 * connections page itself draws them on the server; its requests are in ./requests.ts.
 */

export function useConnections() {
  return useQuery({
    queryKey: connectionKeys.list(),
    queryFn: ({ signal }) => apiRequest<ConnectionListResponse>("/api/connections", { signal }),
  });
}
