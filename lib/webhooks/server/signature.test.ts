import { describe, expect, it } from "vitest";

import { signWebhook, verifyWebhookSignature } from "./signature";

const secret = "whsec-test-0123456789abcdef";
const body = '{"event":"verification.updated","verification_id":"ver_1"}';
const now = new Date("2026-08-10T13:02:44Z");
const t = Math.floor(now.getTime() / 1000);
const check = (header: string | null, raw = body) =>
  verifyWebhookSignature({ header, rawBody: raw, secrets: [secret], toleranceSeconds: 300, now });

describe("webhook signature", () => {
  it("accepts the sender's header over the exact raw bytes", () => {
    expect(check(signWebhook(secret, body, t))).toEqual({ ok: true, timestamp: t });
    // Spaces after commas and extra unknown parts do not matter.
    const [tPart, v1Part] = signWebhook(secret, body, t).split(",");
    expect(check(`${tPart}, v0=abc, ${v1Part}`).ok).toBe(true);
  });

  it("is an HMAC-SHA256 of `<t>.<body>` in hex (a value computed independently)", async () => {
    const { createHmac } = await import("node:crypto");
    const v1 = createHmac("sha256", secret).update(`${t}.${body}`).digest("hex");
    expect(signWebhook(secret, body, t)).toBe(`t=${t},v1=${v1}`);
  });

  it("names each refusal", () => {
    expect(check(null)).toEqual({ ok: false, problem: "missing" });
    expect(check("  ")).toEqual({ ok: false, problem: "missing" });
    expect(check("v1=abc")).toEqual({ ok: false, problem: "malformed" });
    expect(check(`t=${t}`)).toEqual({ ok: false, problem: "malformed" });
    expect(check(`t=soon,v1=${"a".repeat(64)}`)).toEqual({ ok: false, problem: "malformed" });
    expect(check(`t=${t},v1=${"a".repeat(63)}`)).toEqual({ ok: false, problem: "malformed" });
    expect(check(signWebhook(secret, body, t - 301))).toEqual({ ok: false, problem: "stale" });
    expect(check(signWebhook(secret, body, t + 301))).toEqual({ ok: false, problem: "stale" });
    expect(check(signWebhook(secret, body, t - 300)).ok).toBe(true);
    expect(check(signWebhook("another-secret-0123456789", body, t))).toEqual({ ok: false, problem: "mismatch" });
    expect(check(signWebhook(secret, body, t), `${body} `)).toEqual({ ok: false, problem: "mismatch" });
    // The timestamp is signed: moving it to pass the window breaks the HMAC.
    expect(check(signWebhook(secret, body, t - 400).replace(`t=${t - 400}`, `t=${t}`))).toEqual({ ok: false, problem: "mismatch" });
  });

  it("accepts any of several v1 values (the sender rotating its secret)", () => {
    const old = signWebhook("old-secret-0123456789abcdef", body, t).split(",")[1];
    const current = signWebhook(secret, body, t).split(",")[1];
    expect(check(`t=${t},${old},${current}`).ok).toBe(true);
  });

  it("accepts a delivery signed under any key of the dashboard's ring, and none other", () => {
    const old = "old-secret-0123456789abcdef";
    const both = (header: string) => verifyWebhookSignature({ header, rawBody: body, secrets: [secret, old], toleranceSeconds: 300, now });
    expect(both(signWebhook(old, body, t))).toEqual({ ok: true, timestamp: t });
    expect(both(signWebhook(secret, body, t))).toEqual({ ok: true, timestamp: t });
    expect(both(signWebhook("a-third-secret-0123456789", body, t))).toEqual({ ok: false, problem: "mismatch" });
    expect(both(signWebhook(old, body, t - 301))).toEqual({ ok: false, problem: "stale" });
  });
});
