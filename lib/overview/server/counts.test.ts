import { describe, expect, it } from "vitest";

import { STATUSES } from "@/lib/overview/figures";
import { parseOverviewPeriod, todayIn } from "@/lib/overview/period";
import { isUpstreamError } from "@/lib/upstream/errors";
import { withSandbox } from "@/test/sandbox";
import { testConfig, testCoreClient } from "@/test/verifications";

import { COUNT_CONCURRENCY, createCountCache, verificationCounts } from "./counts";

const sandbox = withSandbox({ clear: "faults and requests" });

function lastDays(days: 7 | 30) {
  const parsed = parseOverviewPeriod(new URLSearchParams({ days: String(days) }), todayIn("America/Sao_Paulo"));
  if (!parsed.ok) throw new Error("bad period");
  return parsed.period;
}

async function listCalls() {
  return (await sandbox.requests()).filter((request) => request.path === "/core/public/validations-persons");
}

describe("verificationCounts", () => {
  it("counts each status per day from list totals (per_page=1), one call per status and day plus the period total", async () => {
    const cfg = testConfig(sandbox.url);
    const client = testCoreClient(cfg);
    const period = lastDays(7);
    const counts = await verificationCounts(period, { cfg, client, cache: createCountCache() });

    const calls = await listCalls();
    expect(calls).toHaveLength(STATUSES.length * 7 + 1);
    expect((await sandbox.requests()).length).toBe(calls.length);

    // The same figures as the list itself gives for the whole period, status by status.
    for (const status of STATUSES) {
      const list = await client.listVerifications({ status, from: period.from, to: period.to, per_page: 1 });
      expect(counts.byStatus[status], status).toBe(list.pagination.total);
    }
    const all = await client.listVerifications({ from: period.from, to: period.to, per_page: 1 });
    expect(counts.total).toBe(all.pagination.total);
    expect(counts.total).toBeGreaterThan(0);
    expect(counts.other).toBe(0);
    expect(counts.days.map((day) => day.day)).toEqual(period.days);
    expect(counts.days.reduce((sum, day) => sum + day.total, 0)).toBe(counts.total);
  });

  it("answers a second view from the cache, and keeps another key's environment apart", async () => {
    const cfg = testConfig(sandbox.url);
    const cache = createCountCache();
    const period = lastDays(7);
    const first = await verificationCounts(period, { cfg, client: testCoreClient(cfg), cache });
    await sandbox.clearRequests();

    expect(await verificationCounts(period, { cfg, client: testCoreClient(cfg), cache })).toEqual(first);
    expect(await listCalls()).toHaveLength(0);

    // Same cache, a production key: its own calls and its own (smaller) dataset.
    const production = testConfig(sandbox.url, { CORE_API_KEY: "sbx_core_production" });
    const other = await verificationCounts(period, { cfg: production, client: testCoreClient(production), cache });
    expect(await listCalls()).toHaveLength(STATUSES.length * 7 + 1);
    expect(other.total).not.toBe(first.total);
  });

  it("shares one call per count between views arriving at the same time", async () => {
    const cfg = testConfig(sandbox.url);
    const cache = createCountCache();
    const period = lastDays(7);
    const [a, b, c] = await Promise.all([1, 2, 3].map(() => verificationCounts(period, { cfg, client: testCoreClient(cfg), cache })));
    expect(b).toEqual(a);
    expect(c).toEqual(a);
    expect(await listCalls()).toHaveLength(STATUSES.length * 7 + 1);
  });

  it("stops sending a view's queued calls after its first failure, and does not cache the failure", async () => {
    const cfg = testConfig(sandbox.url);
    const cache = createCountCache();
    const period = lastDays(7);
    await sandbox.setFaults({ path_prefix: "/core", error_rate: 1, status: 503 });
    const failure = await verificationCounts(period, { cfg, client: testCoreClient(cfg), cache }).catch((error: unknown) => error);
    expect(isUpstreamError(failure)).toBe(true);
    // Only the calls already in flight (the limiter's width) went out; the rest were never sent.
    expect((await listCalls()).length).toBeLessThanOrEqual(COUNT_CONCURRENCY);

    await sandbox.clearFaults();
    await sandbox.clearRequests();
    const counts = await verificationCounts(period, { cfg, client: testCoreClient(cfg), cache });
    expect(counts.total).toBeGreaterThan(0);
    expect(await listCalls()).toHaveLength(STATUSES.length * 7 + 1);
  });
});
