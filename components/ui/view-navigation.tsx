"use client";

import { useTransition, type ReactNode } from "react";

import { useAppRouter } from "@/components/ui/app-link";
import { requiredContext } from "@/components/ui/required-context";

/*
 * A view drawn on the server from its address (the verifications list, the audit log): its controls change the
 * address and the server draws the new view. A change is a transition of Next's router: what is on screen stays,
 * dimmed (ViewPending), until the new view arrives. `push` adds a history entry (Back and Forward walk through
 * views), `replace` does not; the same view again is drawn afresh (router.refresh).
 */

interface ViewNavigation {
  /** Shows `query` (the address's query, "" for none) at the view's own path. */
  show: (query: string, history: "push" | "replace") => void;
  /** Draws the view on screen again, from the server. */
  refresh: () => void;
  pending: boolean;
}

const [NavigationProvider, useNavigation] = requiredContext<ViewNavigation>("ViewNavigationProvider");

export function ViewNavigationProvider({ path, children }: { path: string; children: ReactNode }) {
  const router = useAppRouter();
  const [pending, startTransition] = useTransition();
  const value: ViewNavigation = {
    show: (query, history) => {
      const href = query ? `${path}?${query}` : path;
      startTransition(() => (history === "push" ? router.push(href, { scroll: false }) : router.replace(href, { scroll: false })));
    },
    refresh: () => startTransition(() => router.refresh()),
    pending,
  };
  return <NavigationProvider value={value}>{children}</NavigationProvider>;
}

export const useViewNavigation: () => ViewNavigation = useNavigation;

/** What a view shows while a new one is on its way: dimmed, and busy for assistive technology. */
export function ViewPending({ children }: { children: ReactNode }) {
  const { pending } = useViewNavigation();
  return (
    <div className={`transition-opacity ${pending ? "opacity-60" : ""}`} aria-busy={pending || undefined}>
      {children}
    </div>
  );
}
