import { and, eq } from "drizzle-orm";
import { afterAll, beforeAll, beforeEach, expect, it, vi } from "vitest";

import type { LogSink } from "@/lib/log";
import { STATUSES } from "@/lib/overview/figures";
import { parseOverviewPeriod, todayIn, type OverviewPeriod } from "@/lib/overview/period";
import type { Verification } from "@/lib/upstream/model/verification";
import { describeEachDatabase, stubTestEnvironment, withDatabase } from "@/test/db";
import { withSandbox } from "@/test/sandbox";
import { testConfig, testCoreClient } from "@/test/verifications";

import { COUNT_TTL_MS, createCountCache, verificationCounts } from "./counts";
import { applyMirrorStatus, mirroredCounts, type MirrorDeps } from "./mirror";
import { verificationMirror } from "./tables";

/*
 * The overview's status mirror against the sandbox: a cold 31-day view counts what the per-day totals count, in a
 * fraction of their calls; a later view reads only the days that could still change; a mirror that drifted from the
 * service is caught by the service's own totals, logged and read again; an event's status reaches it.
 */

const logged: Array<{ event: string; fields: Record<string, unknown> }> = [];
const sink: LogSink = (_level, line) => {
  const { event, ...fields } = JSON.parse(line) as { event: string } & Record<string, unknown>;
  logged.push({ event, fields });
};
const sandbox = withSandbox({ log: sink });

beforeAll(() => stubTestEnvironment());
// Each test reads only what it logged.
beforeEach(() => void (logged.length = 0));
afterAll(() => vi.unstubAllEnvs());

const CONNECTION = "primary";

function period(query: Record<string, string>): OverviewPeriod {
  const parsed = parseOverviewPeriod(new URLSearchParams(query), todayIn("America/Sao_Paulo"));
  if (!parsed.ok) throw new Error("bad period");
  return parsed.period;
}

async function listCalls(): Promise<number> {
  return (await sandbox.requests()).filter((request) => request.path === "/core/public/validations-persons").length;
}

describeEachDatabase("the overview's status mirror on $name", ({ open }) => {
  const handle = withDatabase(open);
  const deps = (overrides: Partial<MirrorDeps> = {}): MirrorDeps => {
    const cfg = testConfig(sandbox.url);
    return { db: handle.db, cfg, client: testCoreClient(cfg), cache: createCountCache(), connectionId: CONNECTION, ...overrides };
  };

  it("a cold view of 31 days counts what the per-day totals count, in at most 20 calls; a later view reads only the recent days", async () => {
    const days = period({ from: shiftDays(-30), to: shiftDays(0) });
    expect(days.days).toHaveLength(31);

    const counts = await mirroredCounts(days, deps());
    const cold = await listCalls();
    expect(counts).not.toBeNull();
    expect(cold).toBeLessThanOrEqual(20);

    // The same figures, day by day and status by status, as the service's per-day totals (155 + 1 calls).
    await sandbox.clearRequests();
    const expected = await verificationCounts(days, { cfg: deps().cfg, client: deps().client, cache: createCountCache() });
    expect(await listCalls()).toBe(STATUSES.length * 31 + 1);
    expect(counts).toEqual(expected);

    // Another view, its counts cache cold, within a minute: the service's 6 totals, no page (the days still changing
    // were read less than the counts' lifetime ago).
    await sandbox.clearRequests();
    expect(await mirroredCounts(days, deps())).toEqual(expected);
    expect(await listCalls()).toBe(STATUSES.length + 1);

    // Later: the days that had not ended when read (today, and yesterday until it has settled) are read again, in one
    // call here; the days that had ended are not.
    vi.useFakeTimers({ toFake: ["Date"], now: Date.now() + COUNT_TTL_MS + 1_000 });
    try {
      await sandbox.clearRequests();
      expect(await mirroredCounts(days, deps())).toEqual(expected);
      expect(await listCalls()).toBe(STATUSES.length + 1 + 1);
    } finally {
      vi.useRealTimers();
    }
    expect(logged.filter((entry) => entry.event === "verification_mirror_drift")).toEqual([]);
  });

  it("a mirror that drifted from the service is caught by the service's totals, logged, and read again", async () => {
    const days = period({ days: "7" });
    const expected = await verificationCounts(days, { cfg: deps().cfg, client: deps().client, cache: createCountCache() });
    await mirroredCounts(days, deps());
    // A status change the mirror never learned (its event lost): one mirrored verification says approved when the
    // service says otherwise, or the reverse.
    const [row] = await handle.db
      .select()
      .from(verificationMirror)
      .where(and(eq(verificationMirror.connectionId, CONNECTION), eq(verificationMirror.status, "review")))
      .limit(1);
    expect(row, "a mirrored verification in review").toBeDefined();
    await handle.db
      .update(verificationMirror)
      .set({ status: "approved" })
      .where(and(eq(verificationMirror.connectionId, CONNECTION), eq(verificationMirror.publicId, row!.publicId)));

    expect(await mirroredCounts(days, deps())).toEqual(expected);
    const drift = logged.filter((entry) => entry.event === "verification_mirror_drift");
    expect(drift).toHaveLength(1);
    expect(drift[0]!.fields).toMatchObject({ reviewMirror: expected.byStatus.review - 1, reviewService: expected.byStatus.review });
    // Counts only: no verification id in the log.
    expect(JSON.stringify(drift)).not.toContain(row!.publicId);
  });

  it("an event's status reaches the mirrored verification, so the next view agrees without reading again", async () => {
    const days = period({ days: "7" });
    await mirroredCounts(days, deps());
    const [row] = await handle.db.select().from(verificationMirror).where(eq(verificationMirror.connectionId, CONNECTION)).limit(1);
    const decidedAt = new Date();
    await applyMirrorStatus(handle.db, CONNECTION, { publicId: row!.publicId, status: "reproved", decidedAt });
    const [after] = await handle.db.select().from(verificationMirror).where(eq(verificationMirror.publicId, row!.publicId));
    expect(after).toMatchObject({ status: "reproved", decidedAt });
    // Another connection's event for the same id changes nothing here.
    await applyMirrorStatus(handle.db, "production", { publicId: row!.publicId, status: "approved", decidedAt: null });
    const [still] = await handle.db.select().from(verificationMirror).where(eq(verificationMirror.publicId, row!.publicId));
    expect(still!.status).toBe("reproved");
  });

  it("keeps a verification the pages showed twice (the list shifted while read) once", async () => {
    await handle.db.delete(verificationMirror);
    const days = period({ days: "7" });
    const at = (hours: number) => new Date(Date.now() - hours * 3_600_000).toISOString();
    const item = (publicId: string, hours: number): Verification =>
      ({ publicId, status: "approved", createdAt: at(hours), document: "***.456.789-**", documentMasked: true }) as Verification;
    // Page 1 then page 2 of two: a verification created meanwhile pushed B onto the second page as well.
    const pages = [
      [item("a", 1), item("b", 2)],
      [item("b", 2), item("c", 3)],
    ];
    const client = {
      listVerifications: async (filters: { per_page?: number; page?: number; status?: string | string[] }) =>
        filters.per_page === 1
          ? {
              items: [],
              pagination: { page: 1, perPage: 1, total: !filters.status || [filters.status].flat().includes("approved") ? 3 : 0 },
            }
          : { items: pages[(filters.page ?? 1) - 1] ?? [], pagination: { page: filters.page ?? 1, perPage: 2, total: 4 } },
    } as unknown as MirrorDeps["client"];
    const cfg = testConfig(sandbox.url, { CORE_MAX_PER_PAGE: "2" });
    const counts = await mirroredCounts(days, { ...deps(), cfg, client });
    expect(counts?.byStatus.approved).toBe(3);
    expect((await handle.db.select().from(verificationMirror)).map((row) => row.publicId).sort()).toEqual(["a", "b", "c"]);
  });

  it("declines a period whose reading would cost more calls than counting it day by day, having read nothing", async () => {
    // One verification a page: 31 days holding more than 5 × 31 verifications cost more pages than per-day counts.
    const cfg = testConfig(sandbox.url, { CORE_MAX_PER_PAGE: "1" });
    const days = period({ from: shiftDays(-30), to: shiftDays(0) });
    await handle.db.delete(verificationMirror);
    const { total } = await verificationCounts(days, { cfg, client: testCoreClient(cfg), cache: createCountCache() });
    expect(total, "the sandbox's 31 days hold enough verifications").toBeGreaterThan(STATUSES.length * 31);
    await sandbox.clearRequests();
    expect(await mirroredCounts(days, { ...deps(), cfg, client: testCoreClient(cfg) })).toBeNull();
    // The service's six totals, no page.
    expect(await listCalls()).toBe(STATUSES.length + 1);
    expect(await handle.db.select().from(verificationMirror)).toEqual([]);
  });
});

/** The day `offset` days from today in the display time zone, YYYY-MM-DD. */
function shiftDays(offset: number): string {
  const today = todayIn("America/Sao_Paulo");
  const date = new Date(`${today}T12:00:00Z`);
  date.setUTCDate(date.getUTCDate() + offset);
  return date.toISOString().slice(0, 10);
}
