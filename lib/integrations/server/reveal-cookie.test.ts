import { describe, expect, it } from "vitest";

import { parseKeyRing, singleKeyRing } from "@/lib/keys/ring";

import { openRevealCookie, resealRevealCookie, sealRevealCookie, withoutValue } from "./reveal-cookie";

const password = "test-media-seal-secret-0123456789abcdef";
const ring = singleKeyRing(password);
const key = (upstreamId: number) => ({
  upstreamId,
  label: `Key ${upstreamId}`,
  domain: "example.com.br",
  uuid: `00000000-0000-4000-8000-00000000000${upstreamId}`,
});
const T0 = Date.parse("2026-03-02T12:00:00Z");

describe("reveal cookie", () => {
  it("opens within the window for its admin, never after it, never for another admin", async () => {
    const { value, maxAgeSeconds, entry } = await sealRevealCookie("admin-1", [], key(1), { ring, windowSeconds: 600, now: T0 });
    expect(maxAgeSeconds).toBe(600);
    expect(entry.expiresAt).toBe(T0 + 600_000);
    expect(value).not.toContain(key(1).uuid);
    expect((await openRevealCookie(value, "admin-1", { ring, now: T0 + 599_999 })).map((item) => item.uuid)).toEqual([key(1).uuid]);
    expect(await openRevealCookie(value, "admin-1", { ring, now: T0 + 600_000 })).toEqual([]);
    expect(await openRevealCookie(value, "admin-2", { ring, now: T0 + 1_000 })).toEqual([]);
  });

  it("refuses a forged, tampered or foreign-secret seal and an absent cookie", async () => {
    const { value } = await sealRevealCookie("admin-1", [], key(1), { ring, windowSeconds: 600, now: Date.now() });
    expect(await openRevealCookie(`${value.slice(0, -4)}AAAA`, "admin-1", { ring })).toEqual([]);
    expect(await openRevealCookie(value, "admin-1", { ring: singleKeyRing("another-secret-0123456789abcdef-0123") })).toEqual([]);
    expect(await openRevealCookie("not a seal", "admin-1", { ring })).toEqual([]);
    expect(await openRevealCookie(undefined, "admin-1", { ring })).toEqual([]);
  });

  it("keeps each key's own deadline when several are created, and drops the passed ones", async () => {
    const first = await sealRevealCookie("admin-1", [], key(1), { ring, windowSeconds: 600, now: T0 });
    const opened = await openRevealCookie(first.value, "admin-1", { ring, now: T0 + 300_000 });
    const second = await sealRevealCookie("admin-1", opened, key(2), { ring, windowSeconds: 600, now: T0 + 300_000 });
    const both = await openRevealCookie(second.value, "admin-1", { ring, now: T0 + 300_001 });
    expect(both.map((item) => item.upstreamId)).toEqual([2, 1]);
    const later = await openRevealCookie(second.value, "admin-1", { ring, now: T0 + 650_000 });
    expect(later.map((item) => item.upstreamId)).toEqual([2]);
    const resealed = await resealRevealCookie("admin-1", later, { ring, now: T0 + 650_000 });
    expect(resealed?.maxAgeSeconds).toBe(250);
    expect(await resealRevealCookie("admin-1", later, { ring, now: T0 + 900_000 })).toBeUndefined();
    expect(withoutValue(later[0]!)).not.toHaveProperty("uuid");
  });

  it("a cookie sealed before a rotation of MEDIA_SEAL_SECRET still reveals its key; once the old key is retired, nothing", async () => {
    const newer = "newer-media-seal-secret-0123456789abcdef";
    const before = await sealRevealCookie("admin-1", [], key(1), { ring, windowSeconds: 600, now: T0 });
    const rotated = parseKeyRing(`2:${newer},1:${password}`);
    const opened = await openRevealCookie(before.value, "admin-1", { ring: rotated, now: T0 + 1_000 });
    expect(opened.map((item) => item.uuid)).toEqual([key(1).uuid]);

    // The next key created is sealed with the earlier one under the new key alone.
    const after = await sealRevealCookie("admin-1", opened, key(2), { ring: rotated, windowSeconds: 600, now: T0 + 2_000 });
    const newOnly = parseKeyRing(`2:${newer}`);
    expect((await openRevealCookie(after.value, "admin-1", { ring: newOnly, now: T0 + 3_000 })).map((item) => item.upstreamId)).toEqual([
      2, 1,
    ]);
    expect(await openRevealCookie(after.value, "admin-1", { ring, now: T0 + 3_000 })).toEqual([]);
    // The old key retired: the cookie sealed under it reveals nothing.
    expect(await openRevealCookie(before.value, "admin-1", { ring: newOnly, now: T0 + 3_000 })).toEqual([]);
  });
});
