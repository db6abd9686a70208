import { dehydrate, HydrationBoundary, type QueryClient } from "@tanstack/react-query";
import type { ReactNode } from "react";

import { QueryProvider } from "@/components/ui/query-provider";
import { ClientMessages } from "@/lib/i18n/client-messages";

/**
 * A server page's client part: react-query (the tab's client, components/ui/query-provider.tsx) with what the page
 * read into `queryClient` hydrated for the client's hooks (so the first paint is whole, with no second fetch), and the
 * messages of `namespaces` (see ClientMessages) given to it.
 */
export function HydratedClient({
  queryClient,
  namespaces,
  children,
}: {
  queryClient: QueryClient;
  namespaces: readonly string[];
  children: ReactNode;
}) {
  return (
    <QueryProvider>
      <HydrationBoundary state={dehydrate(queryClient)}>
        <ClientMessages namespaces={namespaces}>{children}</ClientMessages>
      </HydrationBoundary>
    </QueryProvider>
  );
}
