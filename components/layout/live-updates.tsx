"use client";

import { useEffect } from "react";

import { openLiveStream, publishLive } from "@/lib/shared/api-client/live";

/*
 * The tab's one live stream (lib/shared/api-client/live.ts), mounted once by the dashboard's shell. Each
 * event invalidates the react-query keys it concerns (./live-invalidation.ts); only queries in use refetch,
 * the rest are marked stale.
 *
 * The stream opens at once, as the shell hydrates. The keys' module (it brings the verification and case
 * query modules and react-query with the tab's client, which many pages do not otherwise load) is not part of
 * the page's first load: it is fetched
 * once the page has loaded, or sooner if an event comes first; events wait for it and are applied in order.
 * A module that fails to load is asked for again by the next event (the events of that attempt are not
 * applied: the pages refresh on their next fetch). Views drawn by the server that refresh themselves (the case
 * queue) hear each event at once through `publishLive`, without that module.
 */

const TOPICS = ["case.opened", "case.assigned", "case.unassigned", "case.outcome", "case.closed", "verification.changed", "notification"];

type Invalidation = typeof import("./live-invalidation");

export function LiveUpdates() {
  useEffect(() => {
    let loading: Promise<Invalidation> | null = null;
    const load = () => {
      if (!loading) {
        const next = import("./live-invalidation");
        loading = next;
        next.catch(() => {
          if (loading === next) loading = null;
        });
      }
      return loading;
    };
    const invalidate = (keysOf: (module: Invalidation) => (readonly unknown[])[]) =>
      void load().then(
        (module) => {
          const client = module.tabQueryClient();
          for (const queryKey of keysOf(module)) void client.invalidateQueries({ queryKey });
        },
        () => undefined,
      );
    const warm = () => void load().catch(() => undefined);
    if (document.readyState === "complete") warm();
    else window.addEventListener("load", warm, { once: true });
    const close = openLiveStream(
      TOPICS,
      (message) => {
        publishLive(message);
        invalidate((module) => module.keysFor(message));
      },
      () => {
        publishLive(null);
        invalidate((module) => module.keysAfterOutage());
      },
    );
    return () => {
      window.removeEventListener("load", warm);
      close();
    };
  }, []);
  return null;
}
