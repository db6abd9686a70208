"use client";

import { Suspense, useSyncExternalStore, type ReactNode } from "react";

/*
 * Whether the page has loaded (the window's load event has fired): an island the first paint does not need (the
 * bell's list, the nav's saved views) renders a stand-in until then and fetches its code afterwards, so its code
 * is not part of the page's first load. On the server and while hydrating: not loaded. After a client-side
 * navigation: loaded at once.
 */

const loaded = () => document.readyState === "complete";

function subscribe(onChange: () => void): () => void {
  window.addEventListener("load", onChange);
  return () => window.removeEventListener("load", onChange);
}

export function useAfterLoad(): boolean {
  return useSyncExternalStore(subscribe, loaded, () => false);
}

/**
 * An island after the page's load: `standIn` until then (and while its lazily loaded code arrives), `children` after.
 * A lazy component in `children` is not fetched before the load event, since it is not rendered until then.
 */
export function AfterLoad({ standIn, children }: { standIn: ReactNode; children: ReactNode }) {
  const loaded = useAfterLoad();
  if (!loaded) return standIn;
  return <Suspense fallback={standIn}>{children}</Suspense>;
}
