import { QueryClient } from "@tanstack/react-query";

import { registerTabCache } from "./tab-cache";

/*
 * One QueryClient per browser tab. The cache lives in memory only: it is never persisted (no persister), because
 * some answers are personal data. It is made the first time something in the tab needs it (a page whose client
 * reads react-query, the bell, the nav's saved views once the page has loaded, a live event), not by the shell:
 * a page that uses no query loads none of react-query (components/ui/query-provider.tsx).
 */
export function makeQueryClient(): QueryClient {
  return new QueryClient({
    defaultOptions: {
      queries: {
        // The server page already fetched the first view; don't refetch it the moment it hydrates.
        staleTime: 30_000,
        refetchOnWindowFocus: false,
        // The route handlers already retry idempotent upstream reads; a second layer would multiply waits.
        retry: false,
        // A query already in error (a server page's failed first fetch, lib/shared/api-client/server-error.ts) is not
        // fetched again on mount: its error state offers retry, rather than a second full wait unasked.
        retryOnMount: false,
      },
    },
  });
}

let tabClient: QueryClient | undefined;

/**
 * The tab's QueryClient, shared by every provider and the live stream's invalidations. On the server (a page's
 * render) a new one each call: a client there must never carry one request's answers into another's.
 */
export function tabQueryClient(): QueryClient {
  if (typeof window === "undefined") return makeQueryClient();
  if (!tabClient) {
    tabClient = makeQueryClient();
    registerTabCache(tabClient);
  }
  return tabClient;
}
