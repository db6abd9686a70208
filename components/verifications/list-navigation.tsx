"use client";

import { useTranslations } from "next-intl";
import { useTransition, type ReactNode } from "react";

import { useAppRouter } from "@/components/ui/app-link";
import { requiredContext } from "@/components/ui/required-context";
import { Spinner } from "@/components/ui/spinner";

/*
 * The list is drawn on the server (./verification-list.tsx); its controls change the address and the server draws
 * the new view. A change is a transition of Next's router: the rows on screen stay, dimmed, until the new ones
 * arrive, and the status line says the list is updating. Filters and pages push a history entry (Back and Forward
 * walk through views); a sort replaces it; the same view again is drawn afresh (router.refresh).
 */

interface ListNavigation {
  /** Shows `query` (the list's address query, "" for none) at the list's own path. */
  show: (query: string, history: "push" | "replace") => void;
  /** Draws the view on screen again, from the service. */
  refresh: () => void;
  pending: boolean;
}

/** Where the notice of live changes floats (./live-changes-notice.tsx), and its stand-in until it has loaded. */
export const LIVE_NOTICE_REGION = "pointer-events-none fixed inset-x-0 bottom-4 z-30 flex justify-center px-4";

const [NavigationProvider, useNavigation] = requiredContext<ListNavigation>("ListNavigationProvider");

export function ListNavigationProvider({ path, children }: { path: string; children: ReactNode }) {
  const router = useAppRouter();
  const [pending, startTransition] = useTransition();
  const value: ListNavigation = {
    show: (query, history) => {
      const href = query ? `${path}?${query}` : path;
      startTransition(() => (history === "push" ? router.push(href, { scroll: false }) : router.replace(href, { scroll: false })));
    },
    refresh: () => startTransition(() => router.refresh()),
    pending,
  };
  return <NavigationProvider value={value}>{children}</NavigationProvider>;
}

export const useListNavigation: () => ListNavigation = useNavigation;

/** The rows while a new view is on its way: dimmed, and busy for assistive technology. */
export function ListPending({ children }: { children: ReactNode }) {
  const { pending } = useListNavigation();
  return (
    <div className={`transition-opacity ${pending ? "opacity-60" : ""}`} aria-busy={pending || undefined}>
      {children}
    </div>
  );
}

/**
 * The list's status line: a bar and "Updating…" while a view is on its way, the count once it is here. Always
 * present and one line high on a desktop, so showing progress never moves the table.
 */
export function ListStatus({ total }: { total: number | null }) {
  const t = useTranslations("verifications.list");
  const { pending } = useListNavigation();
  return (
    <>
      <div className={`relative h-1 w-32 overflow-hidden rounded-full ${pending ? "bg-slate-200" : ""}`} aria-hidden="true">
        {pending ? <div className="absolute inset-0 animate-pulse rounded-full bg-brand-600" /> : null}
      </div>
      <p role="status" aria-live="polite" className="flex items-center gap-2 text-xs text-slate-700">
        {pending ? (
          <>
            <Spinner className="h-3 w-3 text-brand-700" />
            {t("updating")}
          </>
        ) : total !== null ? (
          t("updated", { count: total })
        ) : null}
      </p>
    </>
  );
}
