import { afterEach, beforeEach, describe, expect, it } from "vitest";

import { recordEvent as record } from "@/lib/audit-trail/server";
import { AGE_BUCKETS } from "@/lib/cases/rules";
import { listQueue } from "@/lib/cases/server/queue";
import { cases } from "@/lib/cases/server/tables";
import { queueQuerySchema } from "@/lib/cases/validation";
import type { OverviewPeriod } from "@/lib/overview/period";
import { casesOfAgeHref, closedCasesHref, openCasesHref, overdueCasesHref } from "@/lib/overview/queue-links";
import { startOfDay } from "@/lib/shared/time-zone";
import { describeEachDatabase, withTestEnvironment, type TestDatabase } from "@/test/db";

import { auditActivity } from "./activity";
import { caseFigures } from "./cases";

withTestEnvironment();

const TZ = "America/Sao_Paulo";
const ANA = { id: "0b0e3a52-9f6d-4d55-9a53-0d7c0f4f1a01", email: "ana@example.com" };
const PERIOD: OverviewPeriod = { from: "2026-03-09", to: "2026-03-11", days: ["2026-03-09", "2026-03-10", "2026-03-11"], preset: null };

describeEachDatabase("overview figures on $name", ({ open }) => {
  let handle: TestDatabase;
  beforeEach(async () => {
    handle = await open();
  });
  afterEach(async () => {
    await handle.dispose();
  });

  it("counts successful lookups and exports per action and per day in the display time zone", async () => {
    const at = (iso: string) => new Date(iso);
    const event = (action: string, when: string, outcome: "success" | "failure" | "denied" = "success") =>
      record(
        {
          actor: ANA,
          action,
          outcome,
          at: at(when),
          ...(action.startsWith("lookup.") ? { target: { type: "cpf", cpf: "52998224725" }, purpose: "onboarding" } : {}),
        },
        handle.db,
      );
    await event("lookup.cpf_receita", "2026-03-09T12:00:00Z");
    await event("lookup.cpf_receita", "2026-03-09T13:00:00Z");
    // 01:30 UTC on the 11th is 22:30 on the 10th in São Paulo.
    await event("lookup.cpf_history", "2026-03-11T01:30:00Z");
    await event("lookup.cpf_history", "2026-03-10T12:00:00Z", "denied");
    await event("audit.export", "2026-03-11T15:00:00Z");
    await event("verification.export", "2026-03-11T16:00:00Z");
    await event("verification.view", "2026-03-10T12:00:00Z");
    // Outside the period: 02:59 UTC on the 9th is still the 8th in São Paulo; 03:00 UTC on the 12th is the 12th.
    await event("lookup.cpf_receita", "2026-03-09T02:59:00Z");
    await event("lookup.cpf_receita", "2026-03-12T03:00:00Z");

    const activity = await auditActivity(handle.db, PERIOD, TZ);
    expect(activity.lookupActions).toEqual(["lookup.cpf_history", "lookup.cpf_receita"]);
    expect(activity.exportActions).toEqual(["audit.export", "verification.export"]);
    expect(activity.days).toEqual([
      { day: "2026-03-09", counts: { "audit.export": 0, "lookup.cpf_history": 0, "lookup.cpf_receita": 2, "verification.export": 0 } },
      { day: "2026-03-10", counts: { "audit.export": 0, "lookup.cpf_history": 1, "lookup.cpf_receita": 0, "verification.export": 0 } },
      { day: "2026-03-11", counts: { "audit.export": 1, "lookup.cpf_history": 0, "lookup.cpf_receita": 0, "verification.export": 1 } },
    ]);
  });

  it("gives empty days when the trail has no lookup or export yet", async () => {
    await record({ actor: ANA, action: "auth.sign_in", outcome: "success" }, handle.db);
    const activity = await auditActivity(handle.db, PERIOD, TZ);
    expect(activity).toEqual({ days: PERIOD.days.map((day) => ({ day, counts: {} })), lookupActions: [], exportActions: [] });
  });

  it("reads the backlog by age, SLA breaches and recommendations against the final status", async () => {
    const now = new Date("2026-03-11T18:00:00Z");
    const hoursAgo = (hours: number) => new Date(now.getTime() - hours * 3_600_000);
    let n = 0;
    const add = (fields: Partial<typeof cases.$inferInsert>) =>
      handle.db.insert(cases).values({ publicId: `case-${(n += 1)}`, upstreamStatus: "review", dueAt: now, ...fields });
    // Open: ages 2 h, 30 h, 100 h, 200 h; the two oldest past due.
    await add({ openedAt: hoursAgo(2), dueAt: hoursAgo(-22) });
    await add({ openedAt: hoursAgo(30), dueAt: hoursAgo(-1) });
    await add({ openedAt: hoursAgo(100), dueAt: hoursAgo(76) });
    await add({ openedAt: hoursAgo(200), dueAt: hoursAgo(176) });
    // Closed in the period.
    const closed = (fields: Partial<typeof cases.$inferInsert>) =>
      add({ status: "closed", openedAt: hoursAgo(60), dueAt: hoursAgo(36), closedAt: hoursAgo(40), ...fields });
    await closed({ recommendation: "approve", outcomeState: "confirmed", finalStatus: "approved" });
    await closed({ recommendation: "approve", outcomeState: "recorded", finalStatus: "approved" });
    await closed({
      recommendation: "reprove",
      outcomeState: "confirmed",
      finalStatus: "approved",
      disagreement: true,
      closedAt: hoursAgo(20),
    });
    // Not counted as an outcome: waiting for confirmation, or no recommendation.
    await closed({ recommendation: "reprove", outcomeState: "pending_confirmation", finalStatus: "reproved" });
    await closed({ finalStatus: "reproved" });
    // Closed before the period.
    await closed({
      recommendation: "approve",
      outcomeState: "confirmed",
      finalStatus: "approved",
      closedAt: new Date("2026-03-01T12:00:00Z"),
    });

    const range = { start: startOfDay(PERIOD.from, TZ), end: startOfDay("2026-03-12", TZ) };
    const figures = await caseFigures(handle.db, "primary", range, now);
    expect(figures.backlog).toEqual({ under_1d: 1, "1d_3d": 1, "3d_7d": 1, over_7d: 1 });
    expect(figures.open).toBe(4);
    expect(figures.overdue).toBe(2);
    expect(figures.closedInPeriod).toBe(5);
    expect(figures.closedLate).toBe(1);
    expect(figures.outcomes).toEqual([
      { recommendation: "approve", finalStatus: "approved", count: 2 },
      { recommendation: "reprove", finalStatus: "approved", count: 1 },
    ]);
    expect(figures.disagreements).toBe(1);

    // Each number's link opens exactly the cases it counts (read back through GET /api/cases's schema).
    const totalBehind = async (href: string) => {
      const query = queueQuerySchema.parse(Object.fromEntries(new URL(href, "http://x").searchParams));
      return (await listQueue(handle.db, "primary", query, { id: ANA.id, permissions: [] }, now)).total;
    };
    for (const bucket of AGE_BUCKETS) expect(await totalBehind(casesOfAgeHref(bucket))).toBe(figures.backlog[bucket]);
    expect(await totalBehind(openCasesHref())).toBe(figures.open);
    expect(await totalBehind(overdueCasesHref())).toBe(figures.overdue);
    expect(await totalBehind(closedCasesHref(figures.closedRange))).toBe(figures.closedInPeriod);
    expect(await totalBehind(closedCasesHref(figures.closedRange, { late: true }))).toBe(figures.closedLate);
    expect(await totalBehind(closedCasesHref(figures.closedRange, { disagreement: true }))).toBe(figures.disagreements);
  });
});

describe("startOfDay", () => {
  it("is local midnight in the display time zone", () => {
    expect(startOfDay("2026-03-10", TZ).toISOString()).toBe("2026-03-10T03:00:00.000Z");
    expect(startOfDay("2026-03-10", "UTC").toISOString()).toBe("2026-03-10T00:00:00.000Z");
    // Across a daylight-saving change (New York moved to UTC-4 on 2026-03-08).
    expect(startOfDay("2026-03-09", "America/New_York").toISOString()).toBe("2026-03-09T04:00:00.000Z");
  });
});
