import { PGlite } from "@electric-sql/pglite";
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";

import { createDatabase, type DatabaseHandle } from "@/lib/db/client";
import { acquireLease, leaseDueInMs, releaseLease } from "@/lib/db/lease";
import { metrics } from "@/lib/metrics/registry";
import { withTestEnvironment } from "@/test/db";
import { resetLifecycle } from "@/test/lifecycle";

import { startDraining } from "./lifecycle";
import { startJob, stopJobs } from "./scheduler";

/*
 * Jobs on time (issue 36): a job wakes when its lease says the next run is due, so a one-minute job on two instances
 * runs every minute, each run within a second of its due time, once per minute across them. Before, every instance
 * looked on a fixed minute and the gap was measured from the last finish: a look a minute after a start found the gap
 * a few milliseconds short and the run waited for the next look (a one-minute sync ran about every 1.5 minutes).
 * The clock is driven (fake timers and Date); the leases are real rows in an embedded database.
 */

withTestEnvironment({}, { quiet: true });

let handle: DatabaseHandle;
beforeAll(async () => {
  handle = await createDatabase({ pglite: new PGlite() });
});
afterAll(async () => {
  await handle.close();
});
afterEach(async () => {
  vi.useRealTimers();
  await stopJobs();
  resetLifecycle();
});

const START = new Date("2026-11-30T12:00:00.000Z");

/** A job as an instance runs it: the lease's gap decides, each run is recorded with the time it started. */
function instanceJob(lease: string, holder: string, gapMs: number, runs: Array<{ at: number; by: string }>, workMs = 400) {
  startJob({
    name: `${lease}.${holder}`,
    maxSleepMs: 60_000,
    run: async () => {
      if (!(await acquireLease(handle.db, { name: lease, holder, ttlMs: 60_000, minGapMs: gapMs }))) return "idle";
      runs.push({ at: Date.now() - START.getTime(), by: holder });
      // The work takes a while: the next run is due a gap after this one's start, not its end.
      await new Promise((resolve) => setTimeout(resolve, workMs));
      await releaseLease(handle.db, lease, holder, new Date());
      return "ran";
    },
    nextDueInMs: () => leaseDueInMs(handle.db, lease, gapMs),
  });
}

describe("the job scheduler", () => {
  it("runs a one-minute job on two instances once a minute, each run within a second of its due time", async () => {
    vi.useFakeTimers({ toFake: ["setTimeout", "clearTimeout", "Date"], now: START });
    const runs: Array<{ at: number; by: string }> = [];
    instanceJob("test.minutely", "a", 60_000, runs);
    // The second instance started 30.2 s later: its looks fall between the first's.
    await vi.advanceTimersByTimeAsync(30_200);
    instanceJob("test.minutely", "b", 60_000, runs);
    await vi.advanceTimersByTimeAsync(10 * 60_000);

    const offsets = runs.map((run) => run.at / 1000);
    expect(offsets, `runs at ${offsets.join(", ")} s`).toHaveLength(11);
    offsets.forEach((offset, index) => expect(Math.abs(offset - 60 * index), `run ${index} at ${offset} s`).toBeLessThan(1));
  });

  it("runs a job due every five minutes within a second of each due time, where a fixed look every minute came up to a minute late", async () => {
    vi.useFakeTimers({ toFake: ["setTimeout", "clearTimeout", "Date"], now: START });
    const runs: Array<{ at: number; by: string }> = [];
    instanceJob("test.five", "a", 5 * 60_000 + 7_000, runs, 50);
    await vi.advanceTimersByTimeAsync(16 * 60_000);
    const offsets = runs.map((run) => run.at / 1000);
    expect(offsets).toHaveLength(4);
    offsets.forEach((offset, index) => expect(Math.abs(offset - 307 * index), `run ${index} at ${offset} s`).toBeLessThan(1));
  });

  it("counts each look by job and outcome, and a failed look is retried after the longest sleep", async () => {
    vi.useFakeTimers({ toFake: ["setTimeout", "clearTimeout", "Date"], now: START });
    const counted = async (outcome: string) =>
      (await metrics().jobRuns.get()).values.find((value) => value.labels.job === "test.flaky" && value.labels.outcome === outcome)
        ?.value ?? 0;
    const before = { ran: await counted("ran"), failed: await counted("failed") };
    let calls = 0;
    startJob({
      name: "test.flaky",
      maxSleepMs: 10_000,
      run: async () => {
        calls += 1;
        if (calls === 1) throw new Error("the first look fails");
        return "ran";
      },
      nextDueInMs: async () => 3_600_000,
    });
    await vi.advanceTimersByTimeAsync(9_000);
    expect(calls).toBe(1);
    await vi.advanceTimersByTimeAsync(1_100);
    expect(calls).toBe(2);
    expect(await counted("failed")).toBe(before.failed + 1);
    expect(await counted("ran")).toBe(before.ran + 1);
  });

  it("starts no look while the instance drains", async () => {
    vi.useFakeTimers({ toFake: ["setTimeout", "clearTimeout", "Date"], now: START });
    let calls = 0;
    startJob({ name: "test.drained", maxSleepMs: 1_000, run: async () => ((calls += 1), "ran") });
    await vi.advanceTimersByTimeAsync(2_100);
    expect(calls).toBe(3);
    await startDraining();
    await vi.advanceTimersByTimeAsync(5_000);
    expect(calls).toBe(3);
  });
});
