"use client";

import { ApiErrorState } from "@/components/ui/error-state";
import { apiRequestErrorOf, type ServerError } from "@/lib/shared/api-client/server-error";

/** A server-drawn view's failure as its error state (./server-error-state.tsx loads it, on a failed page only). */
export default function ServerErrorBody({ error, onRetry, retrying }: { error: ServerError; onRetry: () => void; retrying: boolean }) {
  return <ApiErrorState error={apiRequestErrorOf(error)} onRetry={onRetry} retrying={retrying} />;
}
