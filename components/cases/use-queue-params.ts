"use client";

import { useState } from "react";

import { useViewNavigation } from "@/components/ui/view-navigation";
import { queueQueryOf, type QueueParams } from "@/lib/cases/queue-requests";

/**
 * The queue's tab, filters, sort and page, and the cases picked for a bulk action. The view lives in the address:
 * a change asks the server for it (the controls show the choice at once, the rows stay dimmed until it arrives), and
 * a reload or a shared link shows the same queue.
 */
export function useQueueParams(initial: QueueParams) {
  const navigation = useViewNavigation();
  const [params, setParams] = useState<QueueParams>(initial);
  // The server's view follows each navigation (ours, Back, a saved view in the navigation): follow it (adjusted while
  // rendering, not in an effect). Our own `update` leads to the same values.
  const [initialSeen, setInitialSeen] = useState(initial);
  if (JSON.stringify(initial) !== JSON.stringify(initialSeen)) {
    setInitialSeen(initial);
    setParams(initial);
  }
  const [picked, setPicked] = useState<Set<string>>(() => new Set());

  function update(next: Partial<QueueParams>) {
    // Another page or filter: a pick the analyst can no longer see is not acted on.
    setPicked(new Set());
    const merged: QueueParams = { ...params, page: 1, ...next };
    setParams(merged);
    const { page, ...rest } = merged;
    navigation.show(queueQueryOf(page === 1 ? rest : merged), "replace");
  }

  return { params, update, picked, setPicked };
}
