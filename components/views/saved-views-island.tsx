"use client";

import { lazy } from "react";

import { AfterLoad } from "@/components/ui/after-load";
import type { ViewScope } from "@/lib/views/rules";

const LiveSavedViews = lazy(() => import("./saved-views-live"));

/*
 * The member's saved views under a nav entry, on every signed-in page. They are fetched in the browser (never part of
 * the first paint), so their code (and react-query with it) is fetched once the page has loaded; nothing shows until
 * then, as nothing showed before the list came.
 */
export function SavedViewsIsland({ scope, pageLabel }: { scope: ViewScope; pageLabel: string }) {
  return (
    <AfterLoad standIn={null}>
      <LiveSavedViews scope={scope} pageLabel={pageLabel} />
    </AfterLoad>
  );
}
