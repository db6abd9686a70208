"use client";

import { QueryClientContext, QueryClientProvider } from "@tanstack/react-query";
import { useContext, useState, type ComponentType, type ReactNode } from "react";

import { tabQueryClient } from "@/lib/shared/api-client/query-client";

/**
 * react-query for the client components under it, with the tab's one client (lib/shared/api-client/query-client.ts).
 * Given by each page whose client reads queries (the verification's detail, with its hydrated cache) and by the shell's islands
 * that do, never by the shell itself: a page with no query loads none of react-query. An island loaded later (a
 * dialog's form) gives its own, which keeps the client of a provider above it where there is one.
 */
export function QueryProvider({ children }: { children: ReactNode }) {
  const outer = useContext(QueryClientContext);
  const [client] = useState(() => outer ?? tabQueryClient());
  return <QueryClientProvider client={client}>{children}</QueryClientProvider>;
}

/** `Component` under its own QueryProvider: an island whose module loads later and brings react-query with it. */
export function withQueryProvider<Props extends object>(Component: ComponentType<Props>): ComponentType<Props> {
  function WithQueryProvider(props: Props) {
    return (
      <QueryProvider>
        <Component {...props} />
      </QueryProvider>
    );
  }
  return WithQueryProvider;
}
