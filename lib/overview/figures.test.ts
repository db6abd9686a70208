import { describe, expect, it } from "vitest";

import { combineCounts, emptyStatusCounts, ratesOf, type DayCounts } from "./figures";

function day(date: string, counts: Partial<Record<string, number>>): DayCounts {
  const byStatus = { ...emptyStatusCounts(), ...counts };
  return { day: date, byStatus, total: Object.values(byStatus).reduce((a, b) => a + b, 0) };
}

describe("combineCounts", () => {
  it("sums the days per status and shows what the known statuses do not explain as other", () => {
    const counts = combineCounts([day("2026-11-01", { approved: 3, review: 1 }), day("2026-11-02", { approved: 2, started: 4 })], 12);
    expect(counts.byStatus).toEqual({ approved: 5, review: 1, reproved: 0, started: 4, not_opened: 0 });
    expect(counts.other).toBe(2);
  });

  it("never shows a negative other when the service's total is lower (records moved between calls)", () => {
    expect(combineCounts([day("2026-11-01", { approved: 3 })], 2).other).toBe(0);
  });
});

describe("ratesOf", () => {
  it("divides by the verifications that reached analysis, leaving started and not opened out", () => {
    const rates = ratesOf({ approved: 6, review: 3, reproved: 1, started: 50, not_opened: 40 });
    expect(rates).toEqual({ analysed: 10, approval: 0.6, review: 0.3, reproval: 0.1 });
  });

  it("has no rate rather than 0 % when nothing was analysed", () => {
    expect(ratesOf({ ...emptyStatusCounts(), started: 5 })).toEqual({ analysed: 0, approval: null, review: null, reproval: null });
  });
});
