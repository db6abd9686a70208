import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";

import type { Permission } from "@/lib/auth/permissions";
import type { StaffSession } from "@/lib/auth/types";
import { createDatabase, type DatabaseHandle } from "@/lib/db/client";
import { liveEventsAfter, publishLive, sweepLiveEvents } from "@/lib/db/live";
import { liveEvents } from "@/lib/db/tables";
import { describeEachDatabase, stubTestEnvironment, type TestDatabase } from "@/test/db";

import { lastEventIdOf, liveStream, mayReceive, sseFrame } from "./live-stream";

beforeAll(() => stubTestEnvironment());
afterAll(() => vi.unstubAllEnvs());

function member(id: string, permissions: Permission[]): StaffSession {
  return { id, permissions, sessionId: `s-${id}`, awaiting: null } as unknown as StaffSession;
}

const ANALYST = member("11111111-1111-4111-8111-111111111111", ["cases.read", "verifications.read"]);
const OTHER = "22222222-2222-4222-8222-222222222222";

/** Opens a stream and collects its frames; `until` waits for a frame matching. */
function open(
  handle: DatabaseHandle,
  user: StaffSession,
  lastEventId: number | null = null,
  stillSignedIn: () => Promise<StaffSession | null> = async () => user,
) {
  const abort = new AbortController();
  const stream = liveStream({
    handle,
    user,
    connectionId: "primary",
    lastEventId,
    signal: abort.signal,
    stillSignedIn,
    heartbeatMs: 50,
    recheckMs: 100,
  });
  const reader = stream.getReader();
  const decoder = new TextDecoder();
  let text = "";
  let ended = false;
  const pump = (async () => {
    for (;;) {
      const { value, done } = await reader.read();
      if (done) break;
      text += decoder.decode(value);
    }
    ended = true;
  })();
  return {
    abort: () => abort.abort(),
    text: () => text,
    ended: () => ended,
    pump,
    async until(check: (text: string) => boolean, ms = 5_000) {
      const start = Date.now();
      while (!check(text)) {
        if (Date.now() - start > ms) throw new Error(`timed out; stream so far:\n${text}`);
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
    },
  };
}

describe("the live stream's rules", () => {
  it("sends a topic only to who may read it, and a member's event only to that member", () => {
    const noCases = member("33333333-3333-4333-8333-333333333333", ["verifications.read"]);
    expect(mayReceive(ANALYST, { topic: "case.opened", userId: null, connectionId: null }, "primary")).toBe(true);
    expect(mayReceive(noCases, { topic: "case.opened", userId: null, connectionId: null }, "primary")).toBe(false);
    expect(mayReceive(noCases, { topic: "verification.changed", userId: null, connectionId: null }, "primary")).toBe(true);
    expect(mayReceive(ANALYST, { topic: "notification", userId: ANALYST.id, connectionId: null }, "primary")).toBe(true);
    expect(mayReceive(ANALYST, { topic: "notification", userId: OTHER, connectionId: null }, "primary")).toBe(false);
    expect(mayReceive(ANALYST, { topic: "notification", userId: null, connectionId: null }, "primary")).toBe(false);
    expect(mayReceive(ANALYST, { topic: "something.else", userId: null, connectionId: null }, "primary")).toBe(false);
  });

  it("sends a connection's event only to the streams of that connection; an event about none to every stream", () => {
    expect(mayReceive(ANALYST, { topic: "case.opened", userId: null, connectionId: "production" }, "production")).toBe(true);
    expect(mayReceive(ANALYST, { topic: "case.opened", userId: null, connectionId: "production" }, "primary")).toBe(false);
    expect(mayReceive(ANALYST, { topic: "verification.changed", userId: null, connectionId: "primary" }, "production")).toBe(false);
    expect(mayReceive(ANALYST, { topic: "notification", userId: ANALYST.id, connectionId: null }, "production")).toBe(true);
  });

  it("frames an event and reads the last event id from the header or the query", () => {
    expect(sseFrame({ id: 7, topic: "case.opened", payload: { publicId: "p" } })).toBe(
      'id: 7\nevent: case.opened\ndata: {"publicId":"p"}\n\n',
    );
    expect(lastEventIdOf(new Request("http://x/api/events/stream", { headers: { "Last-Event-ID": "42" } }))).toBe(42);
    expect(lastEventIdOf(new Request("http://x/api/events/stream?lastEventId=9"))).toBe(9);
    expect(lastEventIdOf(new Request("http://x/api/events/stream?lastEventId=abc"))).toBeNull();
  });
});

describeEachDatabase("live events on $name", ({ name, open: openDatabase }) => {
  let database: TestDatabase;
  // The second "instance": another handle of the same PostgreSQL database (PGlite is one process: the same one).
  let other: DatabaseHandle;
  beforeAll(async () => {
    database = await openDatabase();
    other = name === "postgres" ? await createDatabase({ url: database.url! }) : database;
  });
  afterAll(async () => {
    if (other !== database) await other.close();
    await database?.dispose();
  });

  it("an event published on one instance reaches a stream opened on another", async () => {
    const stream = open(other, ANALYST);
    await stream.until((text) => text.includes("retry:"));
    // Let the listener connect (a fresh LISTEN connection on PostgreSQL).
    await new Promise((resolve) => setTimeout(resolve, 300));
    const id = await publishLive(database.db, { topic: "case.opened", payload: { publicId: "case-a" } });
    await stream.until((text) => text.includes(`id: ${id}\nevent: case.opened\ndata: {"publicId":"case-a"}`));
    await stream.until((text) => text.includes(": heartbeat"));
    stream.abort();
    await stream.pump;
    expect(stream.ended()).toBe(true);
  });

  it("replays what came after Last-Event-ID, and leaves out another member's events and unreadable topics", async () => {
    const first = await publishLive(database.db, { topic: "case.assigned", payload: { publicId: "case-b" } });
    const mine = await publishLive(database.db, { topic: "notification", payload: { id: 1 }, userId: ANALYST.id });
    await publishLive(database.db, { topic: "notification", payload: { id: 2 }, userId: OTHER });
    const last = await publishLive(database.db, { topic: "verification.changed", payload: { publicId: "case-c", status: "review" } });
    const stream = open(other, ANALYST, first);
    await stream.until((text) => text.includes(`id: ${last}\n`));
    expect(stream.text()).not.toContain(`id: ${first}\n`);
    expect(stream.text()).toContain(`id: ${mine}\nevent: notification`);
    expect(stream.text()).not.toContain('"id":2');

    const noCases = open(other, member("44444444-4444-4444-8444-444444444444", ["verifications.read"]), first - 1);
    await noCases.until((text) => text.includes(`id: ${last}\n`));
    expect(noCases.text()).not.toContain("event: case.");
    stream.abort();
    noCases.abort();
  });

  it("a fresh stream starts now: nothing published before it opened arrives, even announced after", async () => {
    // Published just before the page opens its stream: the announcement (and, on a hub's first subscriber,
    // its connection's catch-up) reaches the hub after the stream subscribed.
    // A database of its own, so this stream is its hub's first subscriber whatever ran before.
    const fresh = await openDatabase();
    try {
      const before = await publishLive(fresh.db, { topic: "case.assigned", payload: { publicId: "case-before" } });
      const stream = open(fresh, ANALYST);
      await stream.until((text) => text.includes("retry:"));
      await new Promise((resolve) => setTimeout(resolve, 300));
      const after = await publishLive(fresh.db, { topic: "case.assigned", payload: { publicId: "case-after" } });
      await stream.until((text) => text.includes(`id: ${after}\n`));
      expect(stream.text()).not.toContain(`id: ${before}\n`);
      expect(stream.text()).not.toContain("case-before");
      stream.abort();
      await stream.pump;
    } finally {
      await fresh.dispose();
    }
  });

  it("closes when the session ends", async () => {
    let live = true;
    const stream = open(other, ANALYST, null, async () => (live ? ANALYST : null));
    await stream.until((text) => text.includes("retry:"));
    live = false;
    await stream.pump;
    expect(stream.ended()).toBe(true);
  });

  it("keeps an hour of events", async () => {
    const old = new Date(Date.now() - 2 * 3_600_000);
    await database.db.insert(liveEvents).values({ topic: "case.closed", payload: { publicId: "old" }, at: old });
    expect((await liveEventsAfter(database.db, 0)).some((event) => event.payload.publicId === "old")).toBe(false);
    expect(await sweepLiveEvents(database.db)).toBeGreaterThanOrEqual(1);
  });
});
