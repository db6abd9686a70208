"use client";

import { lazy, Suspense } from "react";

import { useViewNavigation } from "@/components/ui/view-navigation";
import type { ServerError } from "@/lib/shared/api-client/server-error";

/*
 * A view drawn on the server that failed there (the verifications list, the audit log): shown as its route handler
 * would have answered (components/ui/error-state.tsx), and the retry draws the view again. Its code, with the API
 * client's error class, is loaded by a failed page only: a page that drew its view carries none of it.
 */

const ServerErrorBody = lazy(() => import("./server-error-body"));

export function ServerErrorState({ error }: { error: ServerError }) {
  const navigation = useViewNavigation();
  return (
    <Suspense fallback={null}>
      <ServerErrorBody error={error} onRetry={navigation.refresh} retrying={navigation.pending} />
    </Suspense>
  );
}
