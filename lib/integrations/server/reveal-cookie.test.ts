import { describe, expect, it } from "vitest";

import { openRevealCookie, resealRevealCookie, sealRevealCookie, withoutValue } from "./reveal-cookie";

const secret = "test-media-seal-secret-0123456789abcdef";
const key = (upstreamId: number) => ({
  upstreamId,
  label: `Key ${upstreamId}`,
  domain: "example.com.br",
  uuid: `00000000-0000-4000-8000-00000000000${upstreamId}`,
});
const T0 = Date.parse("2026-03-02T12:00:00Z");

describe("reveal cookie", () => {
  it("opens within the window for its admin, never after it, never for another admin", async () => {
    const { value, maxAgeSeconds, entry } = await sealRevealCookie("admin-1", [], key(1), { secret, windowSeconds: 600, now: T0 });
    expect(maxAgeSeconds).toBe(600);
    expect(entry.expiresAt).toBe(T0 + 600_000);
    expect(value).not.toContain(key(1).uuid);
    expect((await openRevealCookie(value, "admin-1", { secret, now: T0 + 599_999 })).map((item) => item.uuid)).toEqual([key(1).uuid]);
    expect(await openRevealCookie(value, "admin-1", { secret, now: T0 + 600_000 })).toEqual([]);
    expect(await openRevealCookie(value, "admin-2", { secret, now: T0 + 1_000 })).toEqual([]);
  });

  it("refuses a forged, tampered or foreign-secret seal and an absent cookie", async () => {
    const { value } = await sealRevealCookie("admin-1", [], key(1), { secret, windowSeconds: 600, now: Date.now() });
    expect(await openRevealCookie(`${value.slice(0, -4)}AAAA`, "admin-1", { secret })).toEqual([]);
    expect(await openRevealCookie(value, "admin-1", { secret: "another-secret-0123456789abcdef-0123" })).toEqual([]);
    expect(await openRevealCookie("not a seal", "admin-1", { secret })).toEqual([]);
    expect(await openRevealCookie(undefined, "admin-1", { secret })).toEqual([]);
  });

  it("keeps each key's own deadline when several are created, and drops the passed ones", async () => {
    const first = await sealRevealCookie("admin-1", [], key(1), { secret, windowSeconds: 600, now: T0 });
    const opened = await openRevealCookie(first.value, "admin-1", { secret, now: T0 + 300_000 });
    const second = await sealRevealCookie("admin-1", opened, key(2), { secret, windowSeconds: 600, now: T0 + 300_000 });
    const both = await openRevealCookie(second.value, "admin-1", { secret, now: T0 + 300_001 });
    expect(both.map((item) => item.upstreamId)).toEqual([2, 1]);
    const later = await openRevealCookie(second.value, "admin-1", { secret, now: T0 + 650_000 });
    expect(later.map((item) => item.upstreamId)).toEqual([2]);
    const resealed = await resealRevealCookie("admin-1", later, { secret, now: T0 + 650_000 });
    expect(resealed?.maxAgeSeconds).toBe(250);
    expect(await resealRevealCookie("admin-1", later, { secret, now: T0 + 900_000 })).toBeUndefined();
    expect(withoutValue(later[0]!)).not.toHaveProperty("uuid");
  });
});
