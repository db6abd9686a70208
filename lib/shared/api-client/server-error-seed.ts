import { useQueryClient, type QueryClient, type QueryKey } from "@tanstack/react-query";
import { useState } from "react";

import { apiRequestErrorOf, type ServerError } from "./server-error";

/*
 * A server page's failed first fetch (./server-error.ts), put in react-query's cache as that query's error: the page
 * shows its error state at once, and react-query starts no fetch by itself (`retryOnMount: false`,
 * app/providers.tsx); only the retry button does. Without this the browser found no cached page and silently
 * started a second full wait.
 */

/** Records `error` as the query's state unless the cache already holds that query (data or a later fetch). */
export function seedServerError(queryClient: QueryClient, queryKey: QueryKey, error: ServerError): void {
  const cache = queryClient.getQueryCache();
  if (cache.find({ queryKey, exact: true })) return;
  cache.build(
    queryClient,
    { queryKey },
    {
      data: undefined,
      dataUpdateCount: 0,
      dataUpdatedAt: 0,
      error: apiRequestErrorOf(error),
      errorUpdateCount: 1,
      errorUpdatedAt: Date.now(),
      fetchFailureCount: 1,
      fetchFailureReason: null,
      fetchMeta: null,
      isInvalidated: false,
      status: "error",
      fetchStatus: "idle",
    },
  );
}

/** Seeds the server page's error, once, during the first render: call it before the query's hook. */
export function useServerError(queryKey: QueryKey, error: ServerError | null | undefined): void {
  const queryClient = useQueryClient();
  // Lazy state: runs on the first render only (as HydrationBoundary hydrates), so the first paint already
  // shows the error, on the server and in the browser alike.
  useState(() => {
    if (error) seedServerError(queryClient, queryKey, error);
    return null;
  });
}
