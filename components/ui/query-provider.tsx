"use client";

import { QueryClientProvider } from "@tanstack/react-query";
import { useState, type ReactNode } from "react";

import { tabQueryClient } from "@/lib/shared/api-client/query-client";

/**
 * react-query for the client components under it, with the tab's one client (lib/shared/api-client/query-client.ts).
 * Given by each page whose client reads queries (components/layout/hydrated-client.tsx) and by the shell's islands
 * that do, never by the shell itself: a page with no query loads none of react-query.
 */
export function QueryProvider({ children }: { children: ReactNode }) {
  const [client] = useState(tabQueryClient);
  return <QueryClientProvider client={client}>{children}</QueryClientProvider>;
}
