import { describe, expect, it } from "vitest";

import type { SessionSummary } from "@/lib/auth/server/sessions";

import { deviceKey, groupByDevice, sessionsOfDevice } from "./devices";

/*
 * Sessions once per device: the same browser family on the same system from the same address is one device,
 * whatever its version; another address, system or browser is another device, and so is each client the parser
 * does not know.
 */

const CHROME_140 = "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/140.0.0.0 Safari/537.36";
const CHROME_141 = CHROME_140.replace("Chrome/140", "Chrome/141");
const CHROME_MAC = "Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/140.0.0.0 Safari/537.36";
const FIREFOX = "Mozilla/5.0 (Windows NT 10.0; Win64; x64; rv:133.0) Gecko/20100101 Firefox/133.0";

let counter = 0;
function session(userAgent: string | null, ip: string | null, minutesAgo: number, startedMinutesAgo = minutesAgo): SessionSummary {
  counter += 1;
  const now = Date.parse("2026-03-10T12:00:00Z");
  return {
    id: `00000000-0000-4000-8000-${String(counter).padStart(12, "0")}`,
    secret: `secret-${counter}`,
    method: "password",
    userAgent,
    ip,
    createdAt: new Date(now - startedMinutesAgo * 60_000),
    lastSeenAt: new Date(now - minutesAgo * 60_000),
  };
}

describe("sessions by device", () => {
  it("is one device for a browser's family on one system and address, whatever its version", () => {
    expect(deviceKey(session(CHROME_140, "203.0.113.5", 0))).toBe(deviceKey(session(CHROME_141, "203.0.113.5", 0)));
    expect(deviceKey(session(CHROME_140, "203.0.113.5", 0))).not.toBe(deviceKey(session(CHROME_140, "198.51.100.7", 0)));
    expect(deviceKey(session(CHROME_140, "203.0.113.5", 0))).not.toBe(deviceKey(session(CHROME_MAC, "203.0.113.5", 0)));
    expect(deviceKey(session(CHROME_140, "203.0.113.5", 0))).not.toBe(deviceKey(session(FIREFOX, "203.0.113.5", 0)));
    // Two clients the parser cannot name are not one device because of that.
    expect(deviceKey(session("curl/8.0", "203.0.113.5", 0))).not.toBe(deviceKey(session("wget/1.21", "203.0.113.5", 0)));
  });

  it("lists each device once, newest activity first, with its count, its latest session's view and its first start", () => {
    const latest = session(CHROME_141, "203.0.113.5", 1, 30);
    const sessions = [
      latest,
      session(FIREFOX, "203.0.113.5", 5),
      session(CHROME_140, "203.0.113.5", 10, 600),
      session(CHROME_140, "203.0.113.5", 20, 300),
    ];
    const devices = groupByDevice(sessions, sessions[2]!.secret);
    expect(devices).toHaveLength(2);
    expect(devices[0]).toMatchObject({
      id: latest.id,
      browser: "Chrome 141",
      system: "Windows 10",
      count: 3,
      current: true,
      lastSeenAt: latest.lastSeenAt.toISOString(),
      createdAt: new Date(Date.parse("2026-03-10T12:00:00Z") - 600 * 60_000).toISOString(),
    });
    expect(devices[1]).toMatchObject({ browser: "Firefox 133", count: 1, current: false });
    // An admin's view marks no session as theirs.
    expect(groupByDevice(sessions)[0]).not.toHaveProperty("current");
  });

  it("names every live session of a device from any one of them, and none for an unknown id", () => {
    const sessions = [session(CHROME_140, "203.0.113.5", 1), session(FIREFOX, "203.0.113.5", 2), session(CHROME_141, "203.0.113.5", 3)];
    expect(sessionsOfDevice(sessions, sessions[2]!.id).map((one) => one.id)).toEqual([sessions[0]!.id, sessions[2]!.id]);
    expect(sessionsOfDevice(sessions, "00000000-0000-4000-8000-ffffffffffff")).toEqual([]);
  });
});
