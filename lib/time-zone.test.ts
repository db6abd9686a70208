import { describe, expect, it } from "vitest";

import { isoInZone, zoneOffsetMs } from "./time-zone";

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
