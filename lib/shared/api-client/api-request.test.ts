import { afterEach, describe, expect, it, vi } from "vitest";

import { rejection } from "@/test/rejection";

import { apiRequest, ApiRequestError } from "./api-request";

afterEach(() => vi.unstubAllGlobals());

function answer(status: number, body: unknown, headers: Record<string, string> = {}) {
  vi.stubGlobal(
    "fetch",
    vi.fn(async () => new Response(body === undefined ? null : JSON.stringify(body), { status, headers })),
  );
}

const failure = (promise: Promise<unknown>) => rejection(promise, ApiRequestError);

describe("apiRequest", () => {
  it("sends JSON bodies and returns the parsed answer", async () => {
    answer(200, { ok: 1 });
    await expect(apiRequest("/api/x", { method: "POST", body: { a: 1 } })).resolves.toEqual({ ok: 1 });
    const [, init] = vi.mocked(fetch).mock.calls[0]!;
    expect(init).toMatchObject({ method: "POST", body: '{"a":1}', credentials: "same-origin", cache: "no-store" });
  });

  it("reads the dashboard's error model, with fields, Retry-After and rate-limit headers", async () => {
    answer(
      429,
      { error: { code: "rate_limited", message: "Slow down", fields: ["cpf", 3] } },
      { "retry-after": "42", "x-ratelimit-scope": "minute", "x-ratelimit-limit": "10" },
    );
    const error = await failure(apiRequest("/api/x"));
    expect(error).toMatchObject({
      status: 429,
      code: "rate_limited",
      message: "Slow down",
      fields: ["cpf"],
      retryAfterSeconds: 42,
      extra: { scope: "minute", limit: 10 },
    });
    expect(error.outcomeUnknown).toBe(false);
  });

  it("treats a 5xx without a body, and no answer at all, as retryable with an unknown outcome", async () => {
    answer(503, undefined);
    const unavailable = await failure(apiRequest("/api/x", { method: "POST", body: {} }));
    expect(unavailable).toMatchObject({ code: "upstream_unavailable", retryable: true, outcomeUnknown: true });
    vi.stubGlobal(
      "fetch",
      vi.fn(async () => Promise.reject(new TypeError("Failed to fetch"))),
    );
    expect(await failure(apiRequest("/api/x"))).toMatchObject({ status: 0, code: "network", outcomeUnknown: true });
  });

  it("returns nothing for 204", async () => {
    answer(204, undefined);
    await expect(apiRequest("/api/x", { method: "DELETE" })).resolves.toBeUndefined();
  });
});
