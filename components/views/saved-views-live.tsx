"use client";

import { QueryProvider } from "@/components/ui/query-provider";
import { useSavedViews } from "@/lib/views/hooks";
import type { ViewScope } from "@/lib/views/rules";

import { SavedViewsList } from "./saved-views-list";

function ScopedViews({ scope, pageLabel }: { scope: ViewScope; pageLabel: string }) {
  const views = useSavedViews().data?.views ?? [];
  return <SavedViewsList scope={scope} views={views.filter((view) => view.scope === scope)} pageLabel={pageLabel} />;
}

/** The saved views of `scope` with react-query (the tab's client: the save form's invalidation reaches it); loaded after the page (./saved-views-island.tsx). */
export default function LiveSavedViews({ scope, pageLabel }: { scope: ViewScope; pageLabel: string }) {
  return (
    <QueryProvider>
      <ScopedViews scope={scope} pageLabel={pageLabel} />
    </QueryProvider>
  );
}
