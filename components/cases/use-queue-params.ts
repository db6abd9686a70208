"use client";

import { usePathname } from "next/navigation";
import { useState } from "react";

import { useAppRouter } from "@/components/ui/app-link";
import type { QueueParams } from "@/lib/cases/hooks";

/**
 * The queue's tab, filters, sort and page, and the cases picked for a bulk action. State lives in the URL
 * too, so a reload or a shared link shows the same queue.
 */
export function useQueueParams(initial: QueueParams) {
  const router = useAppRouter();
  const pathname = usePathname();
  const [params, setParams] = useState<QueueParams>(initial);
  // A link to other filters (a saved view in the navigation) renders this page again with a new `initial`:
  // follow it (adjusted while rendering, not in an effect). Our own `update` leads to the same values.
  const [initialSeen, setInitialSeen] = useState(initial);
  if (JSON.stringify(initial) !== JSON.stringify(initialSeen)) {
    setInitialSeen(initial);
    setParams(initial);
  }
  const [picked, setPicked] = useState<Set<string>>(() => new Set());

  function update(next: Partial<QueueParams>) {
    // Another page or filter: a pick the analyst can no longer see is not acted on.
    setPicked(new Set());
    const merged = { ...params, page: 1, ...next };
    setParams(merged);
    const search = new URLSearchParams();
    for (const [key, value] of Object.entries(merged))
      if (value !== undefined && !(key === "page" && value === 1)) search.set(key, String(value));
    router.replace(`${pathname}?${search.toString()}`, { scroll: false });
  }

  return { params, update, picked, setPicked };
}
