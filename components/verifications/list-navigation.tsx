"use client";

import { useTranslations } from "next-intl";

import { Spinner } from "@/components/ui/spinner";
import { useViewNavigation } from "@/components/ui/view-navigation";

/*
 * The list is drawn on the server (./verification-list.tsx); its controls change the address through the view's
 * navigation (components/ui/view-navigation.tsx). Filters and pages push a history entry; a sort replaces it.
 */

/** Where the notice of live changes floats (./live-changes-notice.tsx), and its stand-in until it has loaded. */
export const LIVE_NOTICE_REGION = "pointer-events-none fixed inset-x-0 bottom-4 z-30 flex justify-center px-4";

/**
 * The list's status line: a bar and "Updating…" while a view is on its way, the count once it is here. Always
 * present and one line high on a desktop, so showing progress never moves the table.
 */
export function ListStatus({ total }: { total: number | null }) {
  const t = useTranslations("verifications.list");
  const { pending } = useViewNavigation();
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
