import "server-only";

import type { PGlite } from "@electric-sql/pglite";
import pg from "pg";

/*
 * A feed of PostgreSQL notifications (LISTEN) on one channel, for per-instance caches that must forget an
 * entry as soon as any instance changes it. The feed says whether it is connected: a cache may only trust
 * its entries while it is, because a notification sent while the listener was away is lost for good. On
 * (re)connection `onReset` runs, so the cache starts empty rather than trusting what it may have missed.
 *
 * PostgreSQL: one dedicated connection per feed (a pooled connection cannot hold a LISTEN), reconnected
 * with backoff. PGlite: the embedded database is this process alone, and its own `listen` delivers.
 */

export interface ChangeFeedHandlers {
  onMessage(payload: string): void;
  /** The feed (re)connected, or lost its connection: whatever was cached may be stale. */
  onReset(): void;
}

export interface ChangeFeed {
  readonly connected: boolean;
  close(): Promise<void>;
}

const CHANNEL = /^[a-z_][a-z0-9_]*$/;
const MAX_BACKOFF_MS = 5_000;

export function postgresChangeFeed(url: string, channel: string, handlers: ChangeFeedHandlers): ChangeFeed {
  if (!CHANNEL.test(channel)) throw new Error(`invalid channel name ${channel}`);
  let client: pg.Client | null = null;
  let connected = false;
  let closed = false;
  let attempt = 0;
  let timer: NodeJS.Timeout | null = null;

  const lost = () => {
    if (connected) handlers.onReset();
    connected = false;
    client?.removeAllListeners();
    client?.end().catch(() => undefined);
    client = null;
    if (closed) return;
    const delay = Math.min(MAX_BACKOFF_MS, 100 * 2 ** attempt);
    attempt += 1;
    timer = setTimeout(connect, delay);
    timer.unref();
  };

  const connect = () => {
    timer = null;
    if (closed) return;
    const next = new pg.Client({ connectionString: url, application_name: "kyc-backoffice-listen" });
    client = next;
    next.on("error", lost);
    next.on("end", () => {
      if (client === next) lost();
    });
    next.on("notification", (message) => {
      if (message.channel === channel && message.payload) handlers.onMessage(message.payload);
    });
    next
      .connect()
      .then(() => next.query(`LISTEN ${channel}`))
      .then(() => {
        if (closed || client !== next) return;
        attempt = 0;
        connected = true;
        // Anything may have changed while nobody listened.
        handlers.onReset();
      })
      .catch(() => {
        if (client === next) lost();
      });
  };

  connect();
  return {
    get connected() {
      return connected;
    },
    async close() {
      closed = true;
      connected = false;
      if (timer) clearTimeout(timer);
      const current = client;
      client = null;
      current?.removeAllListeners();
      await current?.end().catch(() => undefined);
    },
  };
}

export function pgliteChangeFeed(database: PGlite, channel: string, handlers: ChangeFeedHandlers): ChangeFeed {
  let connected = false;
  let unlisten: (() => Promise<void>) | null = null;
  const ready = database.listen(channel, handlers.onMessage).then((stop) => {
    unlisten = stop;
    connected = true;
    handlers.onReset();
  });
  // A failure to listen leaves the feed disconnected: the cache is bypassed, which is slower but correct.
  ready.catch(() => undefined);
  return {
    get connected() {
      return connected;
    },
    async close() {
      connected = false;
      await ready.catch(() => undefined);
      await unlisten?.().catch(() => undefined);
    },
  };
}
