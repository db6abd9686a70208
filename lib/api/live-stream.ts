import "server-only";

import { hasPermission, type Permission } from "@/lib/auth/permissions";
import type { StaffSession } from "@/lib/auth/types";
import { getDatabaseHandle, type DatabaseHandle } from "@/lib/db/client";
import { latestLiveId, liveEventsAfter, liveHub, type LiveEvent } from "@/lib/db/live";
import { metrics } from "@/lib/metrics/registry";
import { isDraining, onDrain } from "@/lib/runtime/lifecycle";

/*
 * The live stream's answer (GET /api/events/stream): Server-Sent Events, one per live event the member may
 * read, each `id: <live_events.id>`, `event: <topic>`, `data: <payload as JSON>`. With a last event id (the
 * browser's Last-Event-ID on reconnect) the newer rows are replayed first, at most an hour back
 * (lib/db/live.ts). A comment line every HEARTBEAT_MS keeps proxies from closing an idle connection, and
 * `retry:` tells the browser how soon to reconnect.
 *
 * The stream is background: it never keeps the session alive (the route kit's `background`), and it ends
 * with the session: every RECHECK_MS the session is read again (`stillSignedIn`), the stream closes when
 * it is gone and follows the member's permissions as they are now.
 *
 * An instance that is stopping (SIGTERM, lib/runtime/lifecycle.ts) ends every stream with a short `retry:`, and
 * one opened while it stops at once: the browser reconnects within DRAIN_RETRY_MS, through the proxy to an
 * instance still serving, and replays what it missed from its Last-Event-ID. The open streams are counted
 * (`kyc_live_streams_open`).
 */

export const HEARTBEAT_MS = 15_000;
export const RECHECK_MS = 60_000;
const RETRY_MS = 3_000;
export const DRAIN_RETRY_MS = 500;

// Every open stream of this process, by the function that ends it for a drain (on globalThis: one set for all bundles).
const open = ((globalThis as typeof globalThis & { __kycLiveStreams?: Set<() => void> }).__kycLiveStreams ??= new Set());

/** Ends every open stream with a short retry (the drain's first step); how many there were. */
export function endLiveStreamsForDrain(): number {
  const ending = [...open];
  ending.forEach((end) => end());
  return ending.length;
}

onDrain("live streams", endLiveStreamsForDrain);
// Ids recently sent, so a catch-up after a reconnection never sends one twice.
const SENT_MEMORY = 1_000;

/** What each topic needs; a topic not listed is never sent. `notification` is the member's own only. */
const TOPIC_PERMISSIONS: Record<string, Permission | "own"> = {
  case: "cases.read",
  verification: "verifications.read",
  notification: "own",
};

/** Whether this member's stream, open under `connectionId`, may be sent this event. */
export function mayReceive(
  user: Pick<StaffSession, "id" | "permissions">,
  event: Pick<LiveEvent, "topic" | "userId" | "connectionId">,
  connectionId: string,
): boolean {
  if (event.userId !== null && event.userId !== user.id) return false;
  // Another connection's case or verification: not this page's (lib/connections).
  if (event.connectionId !== null && event.connectionId !== connectionId) return false;
  const need = TOPIC_PERMISSIONS[event.topic.split(".")[0] ?? ""];
  if (need === undefined) return false;
  if (need === "own") return event.userId === user.id;
  return hasPermission(user, need);
}

/** An SSE frame for one event. Topics are our own words (no newline); the payload is one JSON line. */
export function sseFrame(event: Pick<LiveEvent, "id" | "topic" | "payload">): string {
  return `id: ${event.id}\nevent: ${event.topic}\ndata: ${JSON.stringify(event.payload)}\n\n`;
}

/** The last event id a reconnecting browser sends: the header, or `lastEventId` in the query. */
export function lastEventIdOf(request: Request): number | null {
  const raw = request.headers.get("last-event-id") ?? new URL(request.url).searchParams.get("lastEventId");
  if (raw === null || !/^\d{1,15}$/.test(raw.trim())) return null;
  return Number(raw.trim());
}

export interface LiveStreamOptions {
  handle: DatabaseHandle;
  user: StaffSession;
  /** The connection the stream was opened under (its page's): another connection's events are not sent. */
  connectionId: string;
  lastEventId: number | null;
  signal: AbortSignal;
  /** The session as it is now, or null when it ended. */
  stillSignedIn: () => Promise<StaffSession | null>;
  heartbeatMs?: number;
  recheckMs?: number;
}

/** The stream on the process database (its change feed and live_events table): what the route answers. */
export async function processLiveStream(options: Omit<LiveStreamOptions, "handle">): Promise<ReadableStream<Uint8Array>> {
  return liveStream({ ...options, handle: await getDatabaseHandle() });
}

export function liveStream(options: LiveStreamOptions): ReadableStream<Uint8Array> {
  const { handle, signal } = options;
  const encoder = new TextEncoder();
  let user = options.user;
  let lastId = 0;
  const sent = new Set<number>();
  let closed = false;
  let unsubscribe: () => void = () => undefined;
  const timers: NodeJS.Timeout[] = [];
  let controller!: ReadableStreamDefaultController<Uint8Array>;

  const close = () => {
    if (closed) return;
    closed = true;
    if (open.delete(endForDrain)) metrics().liveStreams.dec();
    unsubscribe();
    timers.forEach(clearInterval);
    signal.removeEventListener("abort", close);
    try {
      controller.close();
    } catch {
      // Already closed or cancelled by the reader.
    }
  };
  const write = (text: string) => {
    if (closed) return;
    try {
      controller.enqueue(encoder.encode(text));
    } catch {
      close();
    }
  };
  function endForDrain() {
    write(`retry: ${DRAIN_RETRY_MS}\n\n`);
    close();
  }
  // Until the stream knows where it starts, what the hub hands over waits; events at or before the start are
  // what the page was read after, never sent (a notification committed before the stream may arrive after it).
  let start: number | null = null;
  const early: LiveEvent[] = [];
  const send = (event: LiveEvent) => {
    if (start === null) return void early.push(event);
    if (event.id <= start || sent.has(event.id)) return;
    sent.add(event.id);
    if (sent.size > SENT_MEMORY) sent.delete(sent.values().next().value as number);
    lastId = Math.max(lastId, event.id);
    if (mayReceive(user, event, options.connectionId)) write(sseFrame(event));
  };
  const catchUp = async () => {
    if (start === null) return; // the start is read next, and a catch-up follows it
    for (const event of await liveEventsAfter(handle.db, lastId)) send(event);
  };

  return new ReadableStream<Uint8Array>({
    async start(streamController) {
      controller = streamController;
      if (signal.aborted) return close();
      if (isDraining()) return endForDrain();
      signal.addEventListener("abort", close);
      open.add(endForDrain);
      metrics().liveStreams.inc();
      write(`retry: ${RETRY_MS}\n\n`);
      // Subscribe before reading, so nothing published in between is missed (`sent` drops the doubles).
      unsubscribe = liveHub(handle).subscribe({ onEvent: send, onReset: () => void catchUp().catch(() => undefined) });
      lastId = options.lastEventId ?? (await latestLiveId(handle.db));
      start = lastId;
      early.splice(0).forEach(send);
      // The hub may have (re)connected while the start was read: whatever it missed is in the table.
      await catchUp();
      timers.push(setInterval(() => write(": heartbeat\n\n"), options.heartbeatMs ?? HEARTBEAT_MS));
      timers.push(
        setInterval(() => {
          void options
            .stillSignedIn()
            .then((now) => {
              if (now) user = now;
              else close();
            })
            .catch(() => undefined);
        }, options.recheckMs ?? RECHECK_MS),
      );
      timers.forEach((timer) => timer.unref?.());
    },
    cancel() {
      close();
    },
  });
}
