import { eq } from "drizzle-orm";
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";

import { json, route } from "@/lib/api/route";
import { createDatabase, type Database } from "@/lib/db/client";
import { upstreamCalls } from "@/lib/db/tables";
import { addUpstreamCalls, readUpstreamCalls } from "@/lib/db/upstream-calls";
import { stopJobs } from "@/lib/runtime/scheduler";
import { restoreConfigEnv } from "@/test/config";
import { describeEachDatabase, setProcessDatabase, stubTestEnvironment, type TestDatabase } from "@/test/db";
import { sendJson, startFakeServer, type FakeServer } from "@/test/fake-upstream";

import { withAccount } from "./account";
import {
  countUpstreamCall,
  flushUpstreamCalls,
  pendingUpstreamCalls,
  startUpstreamCallFlusher,
  UNATTRIBUTED,
  upstreamSource,
  withUpstreamSource,
} from "./call-count";
import { CoreClient } from "./core";

beforeAll(() => stubTestEnvironment({ DISPLAY_TIME_ZONE: "America/Sao_Paulo" }));
afterAll(() => restoreConfigEnv());

/** Empties the process's tally so each test sees only its own counts. */
function drain(): void {
  const tally = (globalThis as { __kycUpstreamTally?: Map<string, unknown> }).__kycUpstreamTally;
  tally?.clear();
}

afterEach(drain);

describe("upstream call counting", () => {
  let server: FakeServer;
  beforeAll(async () => {
    server = await startFakeServer((request, response) => {
      if (request.path.startsWith("/public/validations-persons/broken")) return sendJson(response, 503, { error: { code: "down" } });
      sendJson(response, 200, { data: [], pagination: { page: 1, per_page: 20, total: 0 } });
    });
  });
  afterAll(() => server.close());

  it("counts each attempt under the current source and the client's operation; outside any source it is unattributed", async () => {
    const client = new CoreClient({ baseUrl: server.url, apiKey: "test-key-0123456789", readRetries: 1, retryBaseDelayMs: 1 });
    await withUpstreamSource("GET /api/verifications", () => client.listVerifications({ per_page: 20 }));
    await withUpstreamSource("job:cases.sync", async () => {
      await client.listVerifications({ per_page: 20 });
      expect(upstreamSource()).toBe("job:cases.sync");
      // A 503 is retried once: two attempts, two calls against the quota.
      await expect(client.getVerification("broken")).rejects.toThrow();
    });
    await client.listVerifications({ per_page: 20 });
    const counts = pendingUpstreamCalls().map(({ source, kind, count }) => [source, kind, count]);
    expect(counts.sort()).toEqual(
      [
        ["GET /api/verifications", "core.list_verifications", 1],
        ["job:cases.sync", "core.list_verifications", 1],
        ["job:cases.sync", "core.get_verification", 2],
        [UNATTRIBUTED, "core.list_verifications", 1],
      ].sort(),
    );
  });

  it("the day is the display time zone's: 01:30 UTC is the previous day in São Paulo", () => {
    countUpstreamCall("core.list_verifications", new Date("2026-03-02T01:30:00Z"));
    countUpstreamCall("core.list_verifications", new Date("2026-03-02T04:00:00Z"));
    expect(pendingUpstreamCalls().map((entry) => entry.day)).toEqual(["2026-03-01", "2026-03-02"]);
  });

  it("the route kit counts a route's calls under its method and file path, never a record's id", async () => {
    const seen: string[] = [];
    const handler = route({ permission: "public" }, async () => {
      seen.push(upstreamSource());
      return json({ ok: true });
    });
    await handler(new Request("http://localhost/api/verifications/ver_123abc/media"), {
      params: Promise.resolve({ publicId: "ver_123abc" }),
    });
    await handler(new Request("http://localhost/api/cases"), { params: Promise.resolve({}) });
    expect(seen).toEqual(["GET /api/verifications/[publicId]/media", "GET /api/cases"]);
  });
});

describeEachDatabase("upstream call counts on $name", ({ open }) => {
  let handle: TestDatabase;
  beforeAll(async () => {
    handle = await open();
  });
  afterAll(() => handle.dispose());

  it("a flush writes one row per key and empties the tally; the next flush adds to the same rows", async () => {
    const at = new Date("2026-05-10T15:00:00Z");
    withUpstreamSource("job:flush-test", () => {
      for (let index = 0; index < 5; index += 1) countUpstreamCall("core.list_verifications", at);
      countUpstreamCall("partners.login", at);
    });
    expect(await flushUpstreamCalls(handle.db)).toBe(6);
    expect(pendingUpstreamCalls()).toEqual([]);
    withUpstreamSource("job:flush-test", () => countUpstreamCall("core.list_verifications", at));
    await flushUpstreamCalls(handle.db);
    const rows = await readUpstreamCalls(handle.db, "primary", "2026-05-10", "2026-05-10");
    expect(rows.filter((row) => row.source === "job:flush-test").map(({ kind, count }) => [kind, count])).toEqual([
      ["core.list_verifications", 6],
      ["partners.login", 1],
    ]);
  });

  it("each connection's calls are counted apart and read apart: each key spends its own quota", async () => {
    const at = new Date("2026-05-14T15:00:00Z");
    const second = { id: "second-key", version: 1, coreApiKey: "sbx_counted_apart_key", partners: null };
    withUpstreamSource("GET /api/verifications", () => {
      countUpstreamCall("core.list_verifications", at);
      withAccount(second, () => {
        countUpstreamCall("core.list_verifications", at);
        countUpstreamCall("core.list_verifications", at);
      });
    });
    await flushUpstreamCalls(handle.db);
    const countsOf = async (connectionId: string) =>
      (await readUpstreamCalls(handle.db, connectionId, "2026-05-14", "2026-05-14")).map(({ connectionId: id, count }) => [id, count]);
    expect(await countsOf("primary")).toEqual([["primary", 1]]);
    expect(await countsOf("second-key")).toEqual([["second-key", 2]]);
  });

  it("a failed write puts the counts back for the next flush", async () => {
    const at = new Date("2026-05-11T15:00:00Z");
    withUpstreamSource("job:retry-test", () => countUpstreamCall("core.get_verification", at));
    // A database that refuses the write (unreachable, say).
    const down = {
      insert: () => {
        throw new Error("database unreachable");
      },
    } as unknown as Database;
    await expect(flushUpstreamCalls(down)).rejects.toThrow("database unreachable");
    expect(pendingUpstreamCalls().map((entry) => entry.count)).toEqual([1]);
    await flushUpstreamCalls(handle.db);
    expect(await readUpstreamCalls(handle.db, "primary", "2026-05-11", "2026-05-11")).toEqual([
      { day: "2026-05-11", connectionId: "primary", source: "job:retry-test", kind: "core.get_verification", count: 1 },
    ]);
  });

  it("the flusher writes the tally every few seconds as one of the jobs, and stops with them", async () => {
    const at = new Date("2026-05-13T15:00:00Z");
    const written = async () =>
      (await readUpstreamCalls(handle.db, "primary", "2026-05-13", "2026-05-13")).filter((row) => row.source === "job:flusher-test");
    setProcessDatabase(handle);
    // Only the timers are driven: the database's own work runs as it does.
    vi.useFakeTimers({ toFake: ["setTimeout", "clearTimeout"] });
    try {
      startUpstreamCallFlusher();
      withUpstreamSource("job:flusher-test", () => countUpstreamCall("core.list_verifications", at));
      await vi.advanceTimersByTimeAsync(5_000);
      await vi.waitFor(async () => expect((await written()).map((row) => row.count)).toEqual([1]));
      expect(pendingUpstreamCalls()).toEqual([]);

      await stopJobs();
      withUpstreamSource("job:flusher-test", () => countUpstreamCall("core.list_verifications", at));
      // Stopped: however long the clock runs, the count waits for the shutdown's own last flush.
      await vi.advanceTimersByTimeAsync(60_000);
      expect(pendingUpstreamCalls().map((entry) => entry.count)).toEqual([1]);
      expect((await written()).map((row) => row.count)).toEqual([1]);
    } finally {
      vi.useRealTimers();
      await stopJobs();
      setProcessDatabase(undefined);
    }
  });

  it("two instances adding to the same keys at once sum, never overwrite", async () => {
    // Two independent connections on PostgreSQL (two instances); the one handle twice on PGlite.
    const other = handle.url ? await createDatabase({ url: handle.url }) : null;
    const writers = [handle.db, other?.db ?? handle.db];
    const rounds = 40;
    try {
      await Promise.all(
        writers.map((db, writer) =>
          (async () => {
            for (let round = 0; round < rounds; round += 1) {
              await addUpstreamCalls(db, [
                { day: "2026-05-12", connectionId: "primary", source: "GET /api/verifications", kind: "core.list_verifications", count: 1 },
                { day: "2026-05-12", connectionId: "primary", source: `job:writer-${writer}`, kind: "core.list_verifications", count: 2 },
                // The same key twice in one batch is summed before the statement (one row may be touched once).
                { day: "2026-05-12", connectionId: "primary", source: "GET /api/verifications", kind: "core.list_verifications", count: 1 },
              ]);
            }
          })(),
        ),
      );
    } finally {
      await other?.close();
    }
    const rows = await handle.db.select().from(upstreamCalls).where(eq(upstreamCalls.day, "2026-05-12"));
    expect(rows.map(({ source, count }) => [source, count]).sort()).toEqual(
      [
        ["GET /api/verifications", rounds * 2 * 2],
        ["job:writer-0", rounds * 2],
        ["job:writer-1", rounds * 2],
      ].sort(),
    );
  });
});
