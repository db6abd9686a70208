import { useSyncExternalStore } from "react";
import { vi } from "vitest";

/*
 * A stand-in for next/navigation in component tests (test/dom-setup.ts mocks the module with it). The URL is
 * jsdom's own location: `router.push` and `router.replace` change it through the History API, and so does a
 * page calling `window.history.pushState` itself, which Next's router picks up the same way (its patched
 * History API), so `usePathname` and `useSearchParams` follow either.
 */

const listeners = new Set<() => void>();
const notify = () => listeners.forEach((listener) => listener());
const subscribe = (listener: () => void) => {
  listeners.add(listener);
  window.addEventListener("popstate", listener);
  return () => {
    listeners.delete(listener);
    window.removeEventListener("popstate", listener);
  };
};

const originalPushState = window.history.pushState.bind(window.history);
const originalReplaceState = window.history.replaceState.bind(window.history);
window.history.pushState = (...args: Parameters<History["pushState"]>) => {
  originalPushState(...args);
  notify();
};
window.history.replaceState = (...args: Parameters<History["replaceState"]>) => {
  originalReplaceState(...args);
  notify();
};

/** The router every component gets: its methods are spies a test can read (`router.push.mock.calls`). */
export const router = {
  push: vi.fn((href: string) => window.history.pushState(null, "", href)),
  replace: vi.fn((href: string) => window.history.replaceState(null, "", href)),
  prefetch: vi.fn(),
  back: vi.fn(() => window.history.back()),
  forward: vi.fn(() => window.history.forward()),
  refresh: vi.fn(),
};

/** Puts the page at `url` (a path with its query) and forgets the router's earlier calls. */
export function setUrl(url: string): void {
  originalReplaceState(null, "", url);
  for (const spy of Object.values(router)) spy.mockClear();
  notify();
}

/** The current path and query, as the address bar shows them. */
export const currentUrl = (): string => `${window.location.pathname}${window.location.search}`;

const readSearch = () => window.location.search;
const readPath = () => window.location.pathname;

export const useRouter = () => router;
export const usePathname = () => useSyncExternalStore(subscribe, readPath, readPath);
export function useSearchParams(): URLSearchParams {
  const search = useSyncExternalStore(subscribe, readSearch, readSearch);
  return new URLSearchParams(search);
}
export const useParams = () => ({});
export const redirect = (href: string) => {
  throw new Error(`redirect(${href}) in a component test`);
};
export const notFound = () => {
  throw new Error("notFound() in a component test");
};
