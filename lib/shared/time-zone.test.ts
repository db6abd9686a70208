import { describe, expect, it } from "vitest";

import { dayWindow, isoInZone, wallTimeInZone, zoneOffsetMs } from "./time-zone";

describe("zoneOffsetMs", () => {
  it("reads the offset in force at the instant", () => {
    expect(zoneOffsetMs(new Date("2026-11-23T12:00:00Z"), "America/Sao_Paulo")).toBe(-3 * 3600_000);
    expect(zoneOffsetMs(new Date("2026-11-23T12:00:00Z"), "UTC")).toBe(0);
    // New York: standard time in January, daylight saving time in July.
    expect(zoneOffsetMs(new Date("2026-01-15T12:00:00Z"), "America/New_York")).toBe(-5 * 3600_000);
    expect(zoneOffsetMs(new Date("2026-07-15T12:00:00Z"), "America/New_York")).toBe(-4 * 3600_000);
  });
});

describe("isoInZone", () => {
  it("writes the zone's wall clock with its offset, naming the same instant", () => {
    expect(isoInZone(new Date("2026-10-01T12:15:30.900Z"), "America/Sao_Paulo")).toBe("2026-10-01T09:15:30-03:00");
    expect(isoInZone(new Date("2026-01-01T02:00:00Z"), "America/Sao_Paulo")).toBe("2025-12-31T23:00:00-03:00");
    expect(isoInZone(new Date("2026-07-15T12:00:00Z"), "Asia/Kolkata")).toBe("2026-07-15T17:30:00+05:30");
    expect(isoInZone(new Date("2026-07-15T12:00:00Z"), "UTC")).toBe("2026-07-15T12:00:00+00:00");
    const value = isoInZone(new Date("2026-03-08T07:30:00Z"), "America/New_York");
    expect(new Date(value).toISOString()).toBe("2026-03-08T07:30:00.000Z");
  });
});

describe("wall times across a daylight-saving change", () => {
  it("gives each wall time the offset in force then, on the day the clocks move", () => {
    // New York moves from -05:00 to -04:00 at 02:00 on 8 March 2026.
    expect(wallTimeInZone("2026-03-08", "00:00:00.000", "America/New_York")).toBe("2026-03-08T00:00:00.000-05:00");
    expect(wallTimeInZone("2026-03-08", "03:30:00.000", "America/New_York")).toBe("2026-03-08T03:30:00.000-04:00");
    expect(wallTimeInZone("2026-03-08", "23:59:59.999", "America/New_York")).toBe("2026-03-08T23:59:59.999-04:00");
    // That day is 23 hours long.
    const { start, end } = dayWindow(new Date("2026-03-08T15:00:00Z"), "America/New_York");
    expect(end - start).toBe(23 * 3_600_000);
  });
});
