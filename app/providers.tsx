"use client";

import { QueryClient, QueryClientProvider } from "@tanstack/react-query";
import { useState, type ReactNode } from "react";

/*
 * One QueryClient per browser tab. The cache lives in memory only: it is never persisted (no
 * persister), because some answers are personal data.
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
      },
    },
  });
}

export function Providers({ children }: { children: ReactNode }) {
  const [queryClient] = useState(makeQueryClient);
  return <QueryClientProvider client={queryClient}>{children}</QueryClientProvider>;
}
