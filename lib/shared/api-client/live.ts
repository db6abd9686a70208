import { useSyncExternalStore } from "react";

import { apiInConnection, connectionOfPath } from "@/lib/shared/connection-path";

/*
 * The live stream in the browser (GET /api/events/stream): one EventSource per tab, opened by the
 * dashboard's shell (components/layout/live-updates.tsx). EventSource reconnects by itself and sends the
 * last event id it saw, so the server replays what the tab missed. The stream is a background request on
 * the server's side (it never keeps the session alive).
 *
 * Whether it is up is shared state (`useLiveConnected`): the polling that exists for the lists and the bell
 * runs only while it is not, i.e. when the stream cannot open or keeps failing (FAILURES_BEFORE_FALLBACK
 * errors without an open in between). A stream the browser gave up on (CLOSED: a 401, a proxy that refuses
 * it) is tried again after REOPEN_MS, polling meanwhile.
 */

export const LIVE_STREAM_URL = "/api/events/stream";
const FAILURES_BEFORE_FALLBACK = 3;
const REOPEN_MS = 30_000;

export interface LiveMessage {
  id: string;
  topic: string;
  payload: Record<string, unknown>;
}

let connected = false;
const watchers = new Set<() => void>();

function setConnected(next: boolean) {
  if (connected === next) return;
  connected = next;
  watchers.forEach((watcher) => watcher());
}

/** True while the tab's live stream is open; polling falls back while it is false. */
export function useLiveConnected(): boolean {
  return useSyncExternalStore(
    (watcher) => {
      watchers.add(watcher);
      return () => watchers.delete(watcher);
    },
    () => connected,
    () => false,
  );
}

/** Polling's interval: none while the stream is open, `ms` otherwise. */
export function useFallbackInterval(ms: number): number | false {
  return useLiveConnected() ? false : ms;
}

/*
 * Views that refresh themselves from the stream (the case queue, drawn by the server with no client cache) hear the
 * shell's stream here: `null` when whatever they show may have changed (back after an outage, or the member changed it
 * elsewhere on the page: going away hands their cases back). The shell publishes (components/layout/live-updates.tsx);
 * a view subscribes while it is on screen.
 */
type LiveListener = (message: LiveMessage | null) => void;
const listeners = new Set<LiveListener>();

/** Hears the tab's stream until the returned function is called. */
export function subscribeLive(listener: LiveListener): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

/** Passes each of the stream's messages, or `null` (read again), to the views listening. */
export function publishLive(message: LiveMessage | null): void {
  listeners.forEach((listener) => listener(message));
}

/**
 * Opens the stream; `topics` are the event names to hear. `onReopen` runs when it opens again after failing
 * (what changed meanwhile may be past the server's replay). Returns the function that closes it.
 */
export function openLiveStream(
  topics: readonly string[],
  onMessage: (message: LiveMessage) => void,
  onReopen: () => void = () => undefined,
): () => void {
  if (typeof EventSource === "undefined") return () => undefined;
  let source: EventSource | null = null;
  let failures = 0;
  let reopen: ReturnType<typeof setTimeout> | null = null;
  let stopped = false;
  let failedSinceOpen = false;

  const listener = (event: Event) => {
    const message = event as MessageEvent<string>;
    let payload: Record<string, unknown> = {};
    try {
      payload = JSON.parse(message.data) as Record<string, unknown>;
    } catch {
      // A frame we cannot read still says its topic changed.
    }
    onMessage({ id: message.lastEventId, topic: message.type, payload });
  };

  const open = () => {
    reopen = null;
    if (stopped) return;
    // The page's connection: the stream carries only its events (lib/shared/connection-path.ts).
    const next = new EventSource(apiInConnection(LIVE_STREAM_URL, connectionOfPath(window.location.pathname)));
    source = next;
    for (const topic of topics) next.addEventListener(topic, listener);
    next.onopen = () => {
      failures = 0;
      setConnected(true);
      if (failedSinceOpen) onReopen();
      failedSinceOpen = false;
    };
    next.onerror = () => {
      failures += 1;
      failedSinceOpen = true;
      if (next.readyState === EventSource.CLOSED || failures >= FAILURES_BEFORE_FALLBACK) {
        setConnected(false);
      }
      if (next.readyState === EventSource.CLOSED) {
        next.close();
        reopen = setTimeout(open, REOPEN_MS);
      }
    };
  };

  open();
  return () => {
    stopped = true;
    if (reopen) clearTimeout(reopen);
    source?.close();
    setConnected(false);
  };
}
