import { describe, expect, it } from "vitest";

import { zoneOffsetMs } from "./time-zone";

describe("zoneOffsetMs", () => {
  it("reads the offset in force at the instant", () => {
    expect(zoneOffsetMs(new Date("2026-11-23T12:00:00Z"), "America/Sao_Paulo")).toBe(-3 * 3600_000);
    expect(zoneOffsetMs(new Date("2026-11-23T12:00:00Z"), "UTC")).toBe(0);
    // New York: standard time in January, daylight saving time in July.
    expect(zoneOffsetMs(new Date("2026-01-15T12:00:00Z"), "America/New_York")).toBe(-5 * 3600_000);
    expect(zoneOffsetMs(new Date("2026-07-15T12:00:00Z"), "America/New_York")).toBe(-4 * 3600_000);
  });
});
