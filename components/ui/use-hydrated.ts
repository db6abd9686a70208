import { useSyncExternalStore } from "react";

const noSubscription = () => () => undefined;

/**
 * False in the server's HTML and while it hydrates, true once the page's code runs. A control whose handler is not
 * attached yet is drawn disabled with it, so a press that comes too early is refused visibly, never lost.
 */
export function useHydrated(): boolean {
  return useSyncExternalStore(
    noSubscription,
    () => true,
    () => false,
  );
}
