"use client";

import { useCallback, useEffect, useRef, useState } from "react";

import { fetchQueue } from "@/lib/cases/queue-requests";
import type { CaseQueueResponse } from "@/lib/cases/types";
import { subscribeLive } from "@/lib/shared/api-client/live";

import type { QueueView } from "./queue-view";

/*
 * The queue's rows as they are now: the server's view (`view`, drawn with the page, and again by each navigation)
 * until the queue reads it again itself, after a claim, a bulk action or a sync (`refresh`), or when the live stream
 * says a case changed (a background read: not the member's activity; after an outage too). A read is for the view on
 * screen: its answer is dropped once the server has drawn another view (or the same one afresh). Reads do not pile up:
 * a burst of events (a bulk assignment sends one per case) costs the one in flight and one more after it. A read that
 * fails leaves the rows as they are (the action that asked for it says what went wrong).
 */
export function useQueueData(view: QueueView): { data: CaseQueueResponse | null; refresh: () => void } {
  const [fresh, setFresh] = useState<{ view: QueueView; data: CaseQueueResponse } | null>(null);
  const current = useRef(view);
  useEffect(() => {
    current.current = view;
  }, [view]);

  // The reader, made with the subscription (a read runs for the view on screen when it starts).
  const reader = useRef<((background: boolean) => void) | null>(null);
  useEffect(() => {
    const read = oneAtATime(async (background) => {
      const asked = current.current;
      try {
        setFresh({ view: asked, data: await fetchQueue(asked.params, { background }) });
      } catch {
        // The rows stay as they are.
      }
    });
    reader.current = read;
    return subscribeLive((message) => {
      if (message === null || message.topic.startsWith("case.")) read(true);
    });
  }, []);

  const served = "data" in view.answer ? view.answer.data : null;
  return { data: fresh?.view === view ? fresh.data : served, refresh: useCallback(() => reader.current?.(false), []) };
}

/**
 * `run` one at a time: asked while one runs, it runs once more after it, however many times it was asked meanwhile
 * (as a background read only if every asking was one).
 */
function oneAtATime(run: (background: boolean) => Promise<void>): (background: boolean) => void {
  let running = false;
  let again: { background: boolean } | null = null;
  const go = (background: boolean) => {
    if (running) {
      again = { background: (again?.background ?? true) && background };
      return;
    }
    running = true;
    void run(background).finally(() => {
      running = false;
      const next = again;
      again = null;
      if (next) go(next.background);
    });
  };
  return go;
}
