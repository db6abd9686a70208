import { PGlite } from "@electric-sql/pglite";
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";

import { createDatabase, type DatabaseHandle } from "@/lib/db/client";
import { acquireLease, releaseLease } from "@/lib/db/lease";
import { stopJobs } from "@/lib/runtime/scheduler";
import { setProcessDatabase, withTestEnvironment } from "@/test/db";
import { resetLifecycle } from "@/test/lifecycle";

import { startLeasedJob } from "./leased-job";

/*
 * A leased job states its interval once: the same gap is the lease's minimum gap between two runs and the time the
 * job's timer wakes for the next one. The clock is driven (fake timers and Date); the lease is a real row.
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
  vi.useRealTimers();
  await stopJobs();
  resetLifecycle();
});

const START = new Date("2026-11-30T12:00:00.000Z");

describe("a leased job", () => {
  it("runs with its interval as the lease's gap and wakes when that gap is up, each run within a second of its due time", async () => {
    vi.useFakeTimers({ toFake: ["setTimeout", "clearTimeout", "Date"], now: START });
    const runs: Array<{ at: number; minGapMs: number }> = [];
    const gapMs = 5 * 60_000 + 7_000;
    startLeasedJob({
      lease: "test.leased",
      gapMs,
      maxSleepMs: 60 * 60_000,
      run: async ({ minGapMs }) => {
        if (!(await acquireLease(handle.db, { name: "test.leased", holder: "a", ttlMs: 60_000, minGapMs }))) return "idle";
        runs.push({ at: (Date.now() - START.getTime()) / 1000, minGapMs });
        await releaseLease(handle.db, "test.leased", "a", new Date());
        return "ran";
      },
    });
    await vi.advanceTimersByTimeAsync(16 * 60_000);
    // Its longest sleep is an hour: only the lease's due time can have woken it for the runs after the first.
    expect(runs.map((run) => run.minGapMs)).toEqual([gapMs, gapMs, gapMs, gapMs]);
    runs.forEach((run, index) => expect(Math.abs(run.at - 307 * index), `run ${index} at ${run.at} s`).toBeLessThan(1));
  });
});
