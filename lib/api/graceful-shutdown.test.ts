import { PGlite } from "@electric-sql/pglite";
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";

import type { StaffSession } from "@/lib/auth/types";
import { createDatabase, type DatabaseHandle } from "@/lib/db/client";
import { acquireLease, releaseHeldLeases } from "@/lib/db/lease";
import { isDraining, onStop } from "@/lib/runtime/lifecycle";
import { startJob, stopJobs } from "@/lib/runtime/scheduler";
import { installGracefulShutdown } from "@/lib/runtime/shutdown";
import { setProcessDatabase, withTestEnvironment } from "@/test/db";
import { awaitingRequests, resetLifecycle } from "@/test/lifecycle";

import { endLiveStreamsForDrain, liveStream } from "./live-stream";
import { json, route } from "./route";

/*
 * A graceful stop (issue 36, lib/runtime/shutdown.ts) as instrumentation.ts installs it: on SIGTERM the instance
 * drains (live streams end with a short retry, no job starts a new run), answers the request in flight, lets the job
 * under way finish and hands its lease back, and only then exits 0. Each step is awaited as it happens (the stop
 * waiting for the request, the stop hooks waiting for the job), not guessed with a pause.
 */

withTestEnvironment({}, { quiet: true });

let handle: DatabaseHandle;
beforeAll(async () => {
  handle = await createDatabase({ pglite: new PGlite() });
  setProcessDatabase(handle);
});
afterAll(async () => {
  setProcessDatabase(undefined);
  await handle.close();
});
afterEach(async () => {
  await stopJobs();
  resetLifecycle();
});

const ANALYST = {
  id: "11111111-1111-4111-8111-111111111111",
  permissions: ["cases.read"],
  sessionId: "s",
  awaiting: null,
} as unknown as StaffSession;

function gate() {
  let open = () => undefined as void;
  const opened = new Promise<void>((resolve) => (open = resolve));
  return { open, opened };
}

/** A member's live stream on the suite's database, read to its end. */
function streamText(): Promise<string> {
  return readAll(
    liveStream({
      handle,
      user: ANALYST,
      connectionId: "primary",
      lastEventId: null,
      signal: new AbortController().signal,
      stillSignedIn: async () => ANALYST,
    }),
  );
}

async function readAll(stream: ReadableStream<Uint8Array>): Promise<string> {
  const reader = stream.getReader();
  const decoder = new TextDecoder();
  let text = "";
  for (;;) {
    const { value, done } = await reader.read();
    if (done) return text;
    text += decoder.decode(value);
  }
}

describe("a graceful stop", () => {
  it("drains live streams with a short retry, answers the request in flight, lets the job finish and hands its lease back, then exits 0", async () => {
    const steps: string[] = [];
    onStop("jobs", async () => {
      steps.push("stopping jobs");
      await stopJobs();
      steps.push("jobs stopped");
    });
    onStop("leases", async () => steps.push(`leases handed back: ${(await releaseHeldLeases(handle.db)).join(",")}`));

    const streamed = streamText();

    const request = gate();
    const slow = route({ permission: "public", database: false }, async () => {
      await request.opened;
      steps.push("request answered");
      return json({ answered: true });
    });
    const answer = slow(new Request("http://localhost/api/slow"));

    const job = gate();
    let looks = 0;
    startJob({
      name: "test.shutdown",
      maxSleepMs: 50,
      run: async () => {
        looks += 1;
        if (!(await acquireLease(handle.db, { name: "test.shutdown", holder: "this-instance", ttlMs: 3_600_000 }))) return "idle";
        await job.opened;
        steps.push("job finished");
        return "ran";
      },
    });
    await vi.waitFor(() => expect(looks).toBe(1));

    const exits: number[] = [];
    const { stop, uninstall } = installGracefulShutdown({ graceMs: 10_000, exit: (code) => exits.push(code) });
    try {
      const stopping = stop("SIGTERM");
      expect(isDraining()).toBe(true);
      // The stream ended with a short retry: the browser reconnects elsewhere and replays from its Last-Event-ID.
      expect(await streamed).toMatch(/retry: 500\n\n$/);
      expect(endLiveStreamsForDrain()).toBe(0);

      // The stop waits for the request in flight: nothing stopped, nothing exited. It is answered.
      await vi.waitFor(() => expect(awaitingRequests()).toBe(true));
      expect(steps).toEqual([]);
      expect(exits).toEqual([]);
      request.open();
      expect(await (await answer).json()).toEqual({ answered: true });

      // Once requests are quiet the stop hooks run, and wait for the job under way: its lease is still held, no exit.
      await vi.waitFor(() => expect(steps).toContain("stopping jobs"), { timeout: 5_000 });
      expect(exits).toEqual([]);
      expect(await acquireLease(handle.db, { name: "test.shutdown", holder: "another-instance", ttlMs: 60_000 })).toBe(false);
      job.open();
      await stopping;
      expect(steps).toEqual(["request answered", "stopping jobs", "job finished", "jobs stopped", "leases handed back: test.shutdown"]);
      expect(exits).toEqual([0]);
      expect(looks).toBe(1);
      expect(await acquireLease(handle.db, { name: "test.shutdown", holder: "another-instance", ttlMs: 60_000 })).toBe(true);
    } finally {
      uninstall();
    }
  });

  it("a stream opened while draining ends at once with the short retry", async () => {
    const { stop, uninstall } = installGracefulShutdown({ graceMs: 2_000, exit: () => undefined });
    try {
      await stop("SIGTERM");
      expect(await streamText()).toBe("retry: 500\n\n");
    } finally {
      uninstall();
    }
  });
});
