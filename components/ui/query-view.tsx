"use client";

import type { ReactNode } from "react";

import { LoadFailed } from "./load-failed";

/**
 * What a read shows where its data goes: the data once it has come (`children`), the failure with a button that
 * asks again, or the loading line meanwhile.
 */
export function QueryView<T>({
  query,
  failed,
  retryLabel,
  loading,
  children,
}: {
  query: { data: T | undefined; isError: boolean; refetch: () => unknown };
  /** What went wrong, in the section's words. */
  failed: ReactNode;
  retryLabel: string;
  loading: string;
  children: (data: NonNullable<T>) => ReactNode;
}) {
  if (query.data) return children(query.data);
  if (query.isError) {
    return (
      <LoadFailed onRetry={query.refetch} retryLabel={retryLabel}>
        {failed}
      </LoadFailed>
    );
  }
  return <p className="text-sm text-slate-600">{loading}</p>;
}
