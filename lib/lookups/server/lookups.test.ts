import { describe, expect, it } from "vitest";

import { dayWindow } from "@/lib/shared/time-zone";

describe("the lookup limit's day", () => {
  it("is the calendar day of the display time zone", () => {
    // 01:30 UTC on 3 March is still 2 March in São Paulo (UTC-3).
    const { start, end } = dayWindow(new Date("2026-03-03T01:30:00Z"), "America/Sao_Paulo");
    expect(new Date(start).toISOString()).toBe("2026-03-02T03:00:00.000Z");
    expect(new Date(end).toISOString()).toBe("2026-03-03T03:00:00.000Z");
    const utc = dayWindow(new Date("2026-03-03T01:30:00Z"), "UTC");
    expect(new Date(utc.start).toISOString()).toBe("2026-03-03T00:00:00.000Z");
  });
});
