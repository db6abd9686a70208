import { and, eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";

import { auditEvents } from "@/lib/audit-trail/server/tables";
import { cases } from "@/lib/cases/server/tables";
import { upstreamCalls } from "@/lib/db/tables";
import { runMonitoring } from "@/lib/monitoring/server/schedule";
import { monitoringScreenings } from "@/lib/monitoring/server/tables";
import { withPartnersHarness } from "@/test/partners-ops";

import { POST } from "./run/route";
import { GET, PUT } from "./settings/route";

/*
 * The screening's routes as Next calls them, with real session cookies against the sandbox: the budget set and read by a
 * holder of cases.assign, a run on demand audited (intent first) and answering what it did, bad input named before
 * anything runs, an analyst refused.
 */

const h = withPartnersHarness({}, { clear: "nothing" });
const BASE = "http://localhost:3000/api/monitoring";
const NO_PARAMS = { params: Promise.resolve({}) };

type Answer = Record<string, unknown> & { error?: { code: string; fields?: string[] } };
async function call(response: Response | Promise<Response>) {
  const answered = await response;
  return { status: answered.status, body: (await answered.json()) as Answer };
}
const send = (path: string, method: string, cookie: string, body?: unknown) => h.request(`${BASE}${path}`, { method, cookie, body });

describe("POST /api/monitoring/run and GET, PUT /api/monitoring/settings", () => {
  it("names the bad field and runs nothing", async () => {
    for (const [body, field] of [
      [{ limit: "ten" }, "limit"],
      [{ limit: 0 }, "limit"],
      [{ limit: 1.5 }, "limit"],
    ] as const) {
      const bad = await call(POST(send("/run", "POST", h.adminCookie, body), NO_PARAMS));
      expect([bad.status, bad.body.error?.fields]).toEqual([400, [field]]);
    }
    for (const body of [{ dailyBudget: -1 }, { dailyBudget: "many" }, {}]) {
      const bad = await call(PUT(send("/settings", "PUT", h.adminCookie, body), NO_PARAMS));
      expect([bad.status, bad.body.error?.fields]).toEqual([400, ["dailyBudget"]]);
    }
    const runs = await h.db.db.select().from(auditEvents).where(eq(auditEvents.action, "monitoring.run"));
    expect(runs).toEqual([]);
  });

  it("sets the budget (audited with the value before), then a run screens an approved person within it", async () => {
    expect((await call(GET(send("/settings", "GET", h.adminCookie), NO_PARAMS))).body).toEqual({ dailyBudget: 0, spentToday: 0, left: 0 });
    const set = await call(PUT(send("/settings", "PUT", h.adminCookie, { dailyBudget: 4 }), NO_PARAMS));
    expect(set).toEqual({ status: 200, body: { dailyBudget: 4, spentToday: 0, left: 4 } });
    const [change] = await h.db.db
      .select()
      .from(auditEvents)
      .where(and(eq(auditEvents.action, "monitoring.settings_change"), eq(auditEvents.actorId, h.adminId)));
    expect(change?.details).toMatchObject({ dailyBudget: 4, was: 0 });

    const listed = (await (
      await fetch(`${h.sandbox.url}/core/public/validations-persons?status=approved&per_page=1`, {
        headers: { "x-api-key": "sbx_core_view_media" },
      })
    ).json()) as { data: Array<{ public_id: string }> };
    const publicId = listed.data[0]!.public_id;
    await h.db.db
      .insert(cases)
      .values({ publicId, upstreamStatus: "approved", dueAt: new Date(), recommendation: "approve", outcomeState: "recorded" });

    const run = await call(POST(send("/run", "POST", h.adminCookie), NO_PARAMS));
    expect(run.status).toBe(200);
    expect(run.body).toMatchObject({ ran: true, screened: 1, failed: 0, budget: 4 });
    expect(run.body.calls).toBeGreaterThanOrEqual(1);
    expect(run.body.budgetLeft).toBe(4 - (run.body.calls as number));
    expect(await h.db.db.select({ publicId: monitoringScreenings.publicId }).from(monitoringScreenings)).toEqual([{ publicId }]);
    const events = await h.db.db.select().from(auditEvents).where(eq(auditEvents.action, "monitoring.run"));
    expect(events.map((event) => event.outcome)).toEqual(["intent", "success"]);
    expect(events[1]?.details).toMatchObject({ screened: 1, calls: run.body.calls });
    // The calls count on the upstream calls page, under the job's source, like the scheduled runs'.
    const counted = await h.db.db.select().from(upstreamCalls).where(eq(upstreamCalls.source, "job:monitoring.screen"));
    expect(counted.reduce((sum, row) => sum + row.count, 0)).toBe(run.body.calls);
  });

  it("audits a scheduled run as the system's once it has someone to screen, and an idle look not at all", async () => {
    const systemRuns = async () =>
      (await h.db.db.select().from(auditEvents).where(eq(auditEvents.action, "monitoring.run"))).filter((event) => event.actorId === null);
    // No budget: the look is idle and writes nothing.
    await call(PUT(send("/settings", "PUT", h.adminCookie, { dailyBudget: 0 }), NO_PARAMS));
    const idle = await runMonitoring({ scheduled: true, minGapMs: 0 });
    expect(idle).toMatchObject({ ran: true, screened: 0, calls: 0 });
    expect(await systemRuns()).toEqual([]);

    await call(PUT(send("/settings", "PUT", h.adminCookie, { dailyBudget: 20 }), NO_PARAMS));
    const listed = (await (
      await fetch(`${h.sandbox.url}/core/public/validations-persons?status=approved&per_page=2`, {
        headers: { "x-api-key": "sbx_core_view_media" },
      })
    ).json()) as { data: Array<{ public_id: string }> };
    const publicId = listed.data[1]!.public_id;
    await h.db.db
      .insert(cases)
      .values({ publicId, upstreamStatus: "approved", dueAt: new Date(), recommendation: "approve", outcomeState: "confirmed" });
    const scheduled = await runMonitoring({ scheduled: true, minGapMs: 0 });
    expect(scheduled.ran).toBe(true);
    expect(scheduled.screened).toBeGreaterThanOrEqual(1);
    expect(await h.db.db.select().from(monitoringScreenings).where(eq(monitoringScreenings.publicId, publicId))).toHaveLength(1);
    expect((await systemRuns()).map((event) => event.outcome)).toEqual(["intent", "success"]);
    await call(PUT(send("/settings", "PUT", h.adminCookie, { dailyBudget: 0 }), NO_PARAMS));
  });

  it("refuses an analyst", async () => {
    expect((await call(POST(send("/run", "POST", h.analystCookie), NO_PARAMS))).status).toBe(403);
    expect((await call(PUT(send("/settings", "PUT", h.analystCookie, { dailyBudget: 10 }), NO_PARAMS))).status).toBe(403);
  });
});
