import "server-only";

import { and, asc, gt, gte, lt, sql } from "drizzle-orm";

import type { ChangeFeed } from "./change-feed";
import type { Database, DatabaseHandle } from "./client";
import { liveEvents } from "./tables";

/*
 * Live events (GET /api/events/stream). `publishLive` writes a row in `live_events` and announces its id on
 * the `kyc_live` channel with `pg_notify`, in the caller's transaction when there is one: PostgreSQL delivers
 * the notification when that transaction commits (and never if it rolls back), so a stream never announces a
 * change that did not happen. Every instance listens through its handle's change feed (lib/db/change-feed.ts:
 * a dedicated LISTEN connection on PostgreSQL, PGlite's own in-process `listen` on the embedded database),
 * one feed per handle shared by all the streams this instance serves (`liveHub`).
 *
 * A notification sent while a feed was away is lost, so on every (re)connection the hub tells its
 * subscribers to catch up from the last id they sent (`onReset`): the table is the truth, the
 * notification only the doorbell. Rows older than LIVE_RETENTION_MS are swept (by the publisher, at most
 * once a minute per process): a stream reconnecting later than that starts afresh.
 *
 * Topics and ids only: a payload never holds personal data (no CPF, no names).
 */

export const LIVE_CHANNEL = "kyc_live";
export const LIVE_RETENTION_MS = 3_600_000;
const SWEEP_EVERY_MS = 60_000;
const REPLAY_LIMIT = 500;

export interface LiveEvent {
  id: number;
  topic: string;
  payload: Record<string, unknown>;
  userId: string | null;
  connectionId: string | null;
  at: Date;
}

export interface LiveInput {
  topic: string;
  payload: Record<string, unknown>;
  /** The member it is for (a notification); absent: everyone allowed to read the topic. */
  userId?: string | null;
  /** The connection whose records it is about: sent only to streams of that connection. Absent: about none. */
  connectionId?: string | null;
}

const sweeper = globalThis as typeof globalThis & { __kycLiveSweptAt?: number };

/** Records and announces an event; returns its id (the stream's event id). */
export async function publishLive(db: Database, input: LiveInput, now = new Date()): Promise<number> {
  const [row] = await db
    .insert(liveEvents)
    .values({ topic: input.topic, payload: input.payload, userId: input.userId ?? null, connectionId: input.connectionId ?? null, at: now })
    .returning({ id: liveEvents.id });
  if (!row) throw new Error("live event not recorded");
  await db.execute(sql`select pg_notify(${LIVE_CHANNEL}, ${String(row.id)})`);
  if (now.getTime() - (sweeper.__kycLiveSweptAt ?? 0) >= SWEEP_EVERY_MS) {
    sweeper.__kycLiveSweptAt = now.getTime();
    await sweepLiveEvents(db, now);
  }
  return row.id;
}

/** Deletes the events older than the retention. */
export async function sweepLiveEvents(db: Database, now = new Date()): Promise<number> {
  const gone = await db
    .delete(liveEvents)
    .where(lt(liveEvents.at, new Date(now.getTime() - LIVE_RETENTION_MS)))
    .returning({ id: liveEvents.id });
  return gone.length;
}

/** The events after `afterId` (at most an hour back), oldest first. */
export async function liveEventsAfter(db: Database, afterId: number, now = new Date(), limit = REPLAY_LIMIT): Promise<LiveEvent[]> {
  return db
    .select()
    .from(liveEvents)
    .where(and(gt(liveEvents.id, afterId), gte(liveEvents.at, new Date(now.getTime() - LIVE_RETENTION_MS))))
    .orderBy(asc(liveEvents.id))
    .limit(limit);
}

/** The newest id now (a fresh stream's starting point), 0 when there is none. */
export async function latestLiveId(db: Database): Promise<number> {
  const [row] = await db.select({ id: sql<number>`coalesce(max(${liveEvents.id}), 0)::bigint` }).from(liveEvents);
  return Number(row?.id ?? 0);
}

export interface LiveSubscriber {
  /** An event was announced (its row read). */
  onEvent(event: LiveEvent): void;
  /** The feed (re)connected: notifications may have been missed, read the table after the last id sent. */
  onReset(): void;
}

export interface LiveHub {
  subscribe(subscriber: LiveSubscriber): () => void;
  readonly connected: boolean;
}

const hubs = new WeakMap<DatabaseHandle, LiveHub>();

/** The instance's one listener on `kyc_live` for this handle, shared by all its streams. */
export function liveHub(handle: DatabaseHandle): LiveHub {
  const known = hubs.get(handle);
  if (known) return known;
  const subscribers = new Set<LiveSubscriber>();
  let feed: ChangeFeed | null = null;
  const deliver = async (payload: string) => {
    const id = Number(payload);
    if (!Number.isSafeInteger(id) || subscribers.size === 0) return;
    const [row] = await handle.db
      .select()
      .from(liveEvents)
      .where(sql`${liveEvents.id} = ${id}`);
    if (!row) return;
    for (const subscriber of subscribers) subscriber.onEvent(row);
  };
  const hub: LiveHub = {
    subscribe(subscriber) {
      feed ??= handle.changeFeed(LIVE_CHANNEL, {
        onMessage: (payload) => void deliver(payload).catch(() => undefined),
        onReset: () => subscribers.forEach((each) => each.onReset()),
      });
      subscribers.add(subscriber);
      return () => subscribers.delete(subscriber);
    },
    get connected() {
      return feed?.connected ?? false;
    },
  };
  hubs.set(handle, hub);
  return hub;
}
