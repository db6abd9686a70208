"use client";

import { QueryProvider } from "@/components/ui/query-provider";

import { NotificationBell } from "./bell";

/** The bell with react-query (the tab's client, shared with the page and the live stream): loaded after the page (./bell-island.tsx). */
export default function LiveBell({ currentConnection }: { currentConnection: string }) {
  return (
    <QueryProvider>
      <NotificationBell currentConnection={currentConnection} />
    </QueryProvider>
  );
}
