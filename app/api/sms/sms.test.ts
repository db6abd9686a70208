import { afterEach, describe, expect, it, vi } from "vitest";

import { SANDBOX_DEFAULTS } from "@/lib/config";
import type { SmsSendResponse } from "@/lib/kyc/types";
import { JWT_SHAPE } from "@/test/jwt-shape";
import { json, withPartnersHarness } from "@/test/partners-ops";

import { POST as send } from "./send/route";
import { POST as validate } from "./validate/route";

/*
 * The SMS phone check through the route handlers, against a real sandbox: phone validation before any
 * call, send then validate, the resend cooldown, a wrong code refused clearly, everything audited with
 * the phone masked.
 */

const h = withPartnersHarness();
const BASE = "http://localhost:3000/api/sms";
const PHONE = "+55 11 91234-5678";
const DIGITS = "5511912345678";

afterEach(() => {
  vi.useRealTimers();
});

type ErrorBody = { error: { code: string; message: string; fields?: string[] } };

const post = (handler: (request: Request) => Promise<Response>, path: string, body: unknown, cookie = h.analystCookie) =>
  handler(h.request(`${BASE}/${path}`, { method: "POST", cookie, body }));

describe("SMS phone check", () => {
  it.each([
    ["a landline", "+55 11 3123-4567"],
    ["a foreign number", "+1 415 555 0100"],
    ["an unknown area code", "+55 20 91234-5678"],
    ["nothing", ""],
    ["a header injection", "\r\nX: y 11912345678"],
    ["a trailing header injection", "+55 11 91234-5678\r\nX: y"],
    ["HTML", "<img src=x onerror=alert(1)>11912345678"],
    ["letters", "+55 11 9I234-5678"],
    ["a scrambled shape", "5+5 1)1 9(1234-5678"],
    ["a number, not a string", 5511912345678],
  ])("refuses %s before any call, naming the phone", async (_name, phone) => {
    const response = await post(send, "send", { phone });
    expect(response.status).toBe(400);
    expect((await json<ErrorBody>(response)).error.fields).toEqual(["phone"]);
    expect((await post(validate, "validate", { phone, code: "123456" })).status).toBe(400);
    expect(await h.sandbox.requests()).toEqual([]);
  });

  it("refuses anonymous callers", async () => {
    expect((await post(send, "send", { phone: PHONE }, "")).status).toBe(401);
    expect((await post(validate, "validate", { phone: PHONE, code: "123456" }, "")).status).toBe(401);
  });

  it("sends a code, refuses a resend during the cooldown, refuses a wrong code clearly, accepts the right one", async () => {
    const sent = await post(send, "send", { phone: "(11) 91234-5678" });
    expect(sent.status).toBe(200);
    expect((await h.sandbox.requests()).find((request) => request.path === "/partners/sms/send-code")?.query).toEqual(["phone"]);
    expect(await json<SmsSendResponse>(sent)).toEqual({ sent: true, phone: PHONE, resendAfterSeconds: 30 });
    const code = await h.sandbox.smsCode(DIGITS);
    expect(code).toMatch(/^\d{6}$/);

    await h.sandbox.clearRequests();
    const resend = await post(send, "send", { phone: PHONE });
    expect(resend.status).toBe(429);
    expect(Number(resend.headers.get("retry-after"))).toBeGreaterThan(0);
    expect(Number(resend.headers.get("retry-after"))).toBeLessThanOrEqual(30);
    expect((await json<ErrorBody>(resend)).error.fields).toEqual(["phone"]);
    expect(await h.sandbox.requests()).toEqual([]);

    const wrongCode = code === "000000" ? "111111" : "000000";
    const wrong = await post(validate, "validate", { phone: PHONE, code: wrongCode });
    expect(wrong.status).toBe(400);
    const error = (await json<ErrorBody>(wrong)).error;
    expect(error.fields).toEqual(["code"]);
    expect(error.message).toMatch(/code is wrong or has expired/);

    await h.sandbox.clearRequests();
    const right = await post(validate, "validate", { phone: PHONE, code });
    expect(right.status).toBe(200);
    expect(await json(right)).toEqual({ valid: true, phone: PHONE });
    // As the provider's reference shows validate-code: phone and code travel in the query.
    const calls = (await h.sandbox.requests()).filter((request) => request.path === "/partners/sms/validate-code");
    expect(calls.map((request) => request.query)).toEqual([["phone", "code"]]);

    // Single use.
    expect((await post(validate, "validate", { phone: PHONE, code })).status).toBe(400);
  });

  it("allows a resend once the cooldown has passed", async () => {
    const phone = "+55 21 98765-4321";
    expect((await post(send, "send", { phone })).status).toBe(200);
    vi.useFakeTimers({ toFake: ["Date"], now: Date.now() + 31_000 });
    await h.sandbox.advanceClock(31);
    expect((await post(send, "send", { phone })).status).toBe(200);
    await h.sandbox.resetClock();
  });

  it("audits each step with the phone masked; no phone, code, JWT or token is stored", async () => {
    const text = await h.allText();
    const events = text.split("\n").filter((line) => line.includes('"action":"sms.'));
    expect(
      events.some(
        (line) =>
          line.includes('"action":"sms.send"') && line.includes('"target":"+55 11 *****-5678"') && line.includes('"outcome":"success"'),
      ),
    ).toBe(true);
    expect(events.some((line) => line.includes('"action":"sms.send"') && line.includes('"outcome":"denied"'))).toBe(true);
    expect(events.some((line) => line.includes('"action":"sms.validate"') && line.includes('"outcome":"failure"'))).toBe(true);
    expect(events.some((line) => line.includes('"action":"sms.validate"') && line.includes('"outcome":"success"'))).toBe(true);
    expect(text).not.toContain(DIGITS);
    expect(text).not.toContain("91234-5678");
    expect(text).not.toContain(SANDBOX_DEFAULTS.partnersIntegrationToken);
    // A JWT: a header and a payload, both JSON objects ("eyJ" is base64url for '{"'). One "eyJ" alone was matched once by
    // a sealed column's random ciphertext followed by its "." separator.
    expect(text).not.toMatch(JWT_SHAPE);
  });
});
