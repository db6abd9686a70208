"use client";

import { QueryClient, QueryClientProvider } from "@tanstack/react-query";
import { setNonce } from "get-nonce";
import { useState, type ReactNode } from "react";

import { StepUpProvider } from "@/components/auth/step-up-provider";

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
        // A query already in error (a server page's failed first fetch, lib/shared/api-client/server-error.ts) is not
        // fetched again on mount: its error state offers retry, rather than a second full wait unasked.
        retryOnMount: false,
      },
    },
  });
}

export function Providers({ children, nonce }: { children: ReactNode; nonce?: string }) {
  const [queryClient] = useState(makeQueryClient);
  // The dialogs' scroll lock injects a <style> element; with this response's nonce on it, the CSP can
  // refuse every other inline style element (lib/api/csp.ts).
  if (nonce) setNonce(nonce);
  // The step-up dialog: any call refused with `step_up_required` asks for the second factor in place.
  return (
    <QueryClientProvider client={queryClient}>
      <StepUpProvider>{children}</StepUpProvider>
    </QueryClientProvider>
  );
}
