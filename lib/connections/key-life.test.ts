import { describe, expect, it } from "vitest";

import { createConnectionSchema, updateConnectionSchema } from "@/lib/connections/validation";

import { daysLeft, expiryWarning, keyExpiry, keyHintOf, latestExpiry } from "./key-life";

/* A core key's life as the provider documents it (api/autenticacao.mdx at 40274c2): format, validity, warnings. */

const NOW = new Date("2026-11-30T12:00:00Z");
const DAY = 86_400_000;
const KEY = "lz_AbCd1234_s3cr3tV4lu3";

describe("a core key's life", () => {
  it("tells a provider key by its public part, any other by its last four characters", () => {
    expect(keyHintOf(KEY)).toBe("lz_AbCd1234");
    expect(keyHintOf("sbx_core_view_media")).toBe("edia");
  });

  it("takes a provider key without a stated expiry to expire after the default year; an unknown format, never", () => {
    expect(keyExpiry(KEY, undefined, NOW)).toEqual({ expiresAt: new Date(NOW.getTime() + 365 * DAY), stated: false });
    const stated = new Date("2027-03-01T00:00:00Z");
    expect(keyExpiry(KEY, stated, NOW)).toEqual({ expiresAt: stated, stated: true });
    expect(keyExpiry("sbx_core_view", undefined, NOW)).toEqual({ expiresAt: null, stated: false });
  });

  it("warns from 30 days before, again from 7, and once expired", () => {
    const at = (days: number) => new Date(NOW.getTime() + days * DAY);
    expect(expiryWarning(at(31), NOW)).toBeNull();
    expect(expiryWarning(at(29.5), NOW)).toBe("30");
    expect(expiryWarning(at(7.5), NOW)).toBe("30");
    expect(expiryWarning(at(6.5), NOW)).toBe("7");
    expect(expiryWarning(at(0.5), NOW)).toBe("7");
    expect(expiryWarning(at(-0.01), NOW)).toBe("expired");
    expect(expiryWarning(null, NOW)).toBeNull();
    expect(daysLeft(at(6.5), NOW)).toBe(6);
  });
});

describe("what an admin may send", () => {
  const base = { name: "App", environment: "sandbox" };
  const problemOf = (result: { success: boolean; error?: { issues: Array<{ path: PropertyKey[]; message: string }> } }) =>
    result.error?.issues.map((issue) => [issue.path.join("."), issue.message]);

  it("refuses a key that starts like the provider's but is not one whole (cut short when pasted)", () => {
    expect(createConnectionSchema.safeParse({ ...base, coreApiKey: KEY }).success).toBe(true);
    expect(problemOf(createConnectionSchema.safeParse({ ...base, coreApiKey: "lz_AbCd1234" }))).toEqual([
      ["coreApiKey", "must be the provider's format lz_XXXXXXXX_<secret>"],
    ]);
    expect(createConnectionSchema.safeParse({ ...base, coreApiKey: "sbx_core_view" }).success).toBe(true);
  });

  it("takes an expiry after today and at most two years ahead, and a grace of 0 to 168 hours with a new key only", () => {
    const day = (date: Date) => date.toISOString().slice(0, 10);
    const tooLate = day(new Date(latestExpiry(new Date()).getTime() + 2 * DAY));
    expect(problemOf(createConnectionSchema.safeParse({ ...base, coreApiKey: KEY, coreKeyExpiresAt: tooLate }))?.[0]?.[0]).toBe(
      "coreKeyExpiresAt",
    );
    expect(problemOf(updateConnectionSchema.safeParse({ coreKeyExpiresAt: "2020-01-01" }))?.[0]?.[0]).toBe("coreKeyExpiresAt");
    expect(updateConnectionSchema.safeParse({ coreKeyExpiresAt: day(new Date(Date.now() + 90 * DAY)) }).success).toBe(true);
    expect(problemOf(updateConnectionSchema.safeParse({ graceHours: 24 }))?.[0]?.[0]).toBe("graceHours");
    expect(problemOf(updateConnectionSchema.safeParse({ coreApiKey: KEY, graceHours: 169 }))?.[0]?.[0]).toBe("graceHours");
    expect(updateConnectionSchema.safeParse({ coreApiKey: KEY, graceHours: 0 }).success).toBe(true);
  });
});
