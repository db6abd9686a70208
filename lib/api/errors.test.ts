import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { z } from "zod";

import { serverErrorOf, toErrorResponse } from "@/lib/api/errors";
import { setLogSink } from "@/lib/log";
import { AppError } from "@/lib/shared/errors";
import {
  UpstreamForbiddenError,
  UpstreamMalformedResponseError,
  UpstreamNotFoundError,
  UpstreamRateLimitedError,
  UpstreamTimeoutError,
  UpstreamUnauthorizedError,
  UpstreamUnavailableError,
  UpstreamValidationError,
} from "@/lib/upstream/errors";

/* The one error mapper: every thrown thing becomes {error: {code, message, fields?, retryable?}}. */

const at = { upstream: "core" as const, method: "GET", route: "/public/validations-persons/{public_id}", status: 400 };

async function answer(error: unknown) {
  const response = toErrorResponse(error);
  return { status: response.status, headers: response.headers, body: (await response.json()) as { error: Record<string, unknown> } };
}

let lines: string[];
beforeEach(() => {
  lines = [];
  setLogSink((_level, line) => lines.push(line));
});
afterEach(() => setLogSink(undefined));

describe("toErrorResponse", () => {
  it("maps AppError codes to their status", async () => {
    expect((await answer(new AppError("unauthenticated"))).status).toBe(401);
    expect((await answer(new AppError("forbidden"))).status).toBe(403);
    expect((await answer(new AppError("conflict", "Taken."))).body).toEqual({ error: { code: "conflict", message: "Taken." } });
    expect((await answer(new AppError("rate_limited"))).status).toBe(429);
  });

  it("maps a ZodError to 400 naming every field path", async () => {
    const schema = z.object({ cpf: z.string().length(11), document: z.object({ number: z.string() }) });
    const result = schema.safeParse({ cpf: "1", document: {} });
    const { status, body } = await answer(result.error);
    expect(status).toBe(400);
    expect(body.error.code).toBe("validation");
    expect(body.error.fields).toEqual(["cpf", "document.number"]);
    expect(body.error.message).toContain("cpf");
    expect(body.error.message).toContain("document.number");
  });

  it("says what the upstream rejected", async () => {
    const error = new UpstreamValidationError({ ...at, code: "E_VALIDATION_FAILURE", fields: ["foo"] }, "400 rejected");
    const { status, body } = await answer(error);
    expect(status).toBe(400);
    expect(body.error).toEqual({
      code: "upstream_validation",
      message: "The verification service rejected the request: it rejected foo.",
      fields: ["foo"],
    });
  });

  it("explains a core 403 as the IP allow-list", async () => {
    const { status, body } = await answer(new UpstreamForbiddenError({ ...at, status: 403 }, "403", "ip_not_allowed"));
    expect(status).toBe(502);
    expect(body.error).toEqual({
      code: "upstream_ip_not_allowed",
      message: "This server's IP address is not on the verification service's allow-list. Ask the service's support to allow it.",
    });
    expect((await answer(new UpstreamForbiddenError({ ...at, status: 403 }, "403", "permission"))).body.error.code).toBe(
      "upstream_forbidden",
    );
  });

  it("answers a 404 with 'Not found.' and nothing more", async () => {
    const { status, body } = await answer(new UpstreamNotFoundError({ ...at, status: 404 }, "404"));
    expect(status).toBe(404);
    expect(body.error).toEqual({ code: "not_found", message: "Not found." });
  });

  it("reports a partners 401 (after the re-login) as a clear configuration failure", async () => {
    const { status, body } = await answer(new UpstreamUnauthorizedError({ ...at, upstream: "partners", status: 401 }, "401"));
    expect(status).toBe(502);
    expect(body.error.code).toBe("upstream_unauthorized");
  });

  it("maps timeouts, 5xx, network errors and malformed bodies to a retryable 503", async () => {
    for (const error of [
      new UpstreamTimeoutError({ ...at, status: null }, "timeout"),
      new UpstreamUnavailableError({ ...at, status: 503 }, "503"),
      new UpstreamUnavailableError({ ...at, status: null }, "network error"),
      new UpstreamMalformedResponseError({ ...at, status: 200 }, "not JSON"),
    ]) {
      const { status, body } = await answer(error);
      expect(status).toBe(503);
      expect(body.error).toEqual({
        code: "upstream_unavailable",
        message: "The verification service is unavailable. Try again.",
        retryable: true,
      });
    }
  });

  it("passes Retry-After on for an upstream 429", async () => {
    const { status, headers, body } = await answer(new UpstreamRateLimitedError({ ...at, status: 429 }, "429", 12));
    expect(status).toBe(429);
    expect(headers.get("retry-after")).toBe("12");
    expect(body.error.retryable).toBe(true);
  });

  it("answers anything else with a generic 500, logs it, and sends no stack", async () => {
    const error = new Error("db password=hunter2 exploded at /srv/app.ts:12");
    const { status, headers, body } = await answer(error);
    expect(status).toBe(500);
    expect(headers.get("cache-control")).toBe("no-store");
    expect(body.error.code).toBe("internal");
    expect(JSON.stringify(body)).not.toMatch(/hunter2|app\.ts|exploded/);
    expect(lines.some((line) => line.includes("unhandled_error") && line.includes("exploded"))).toBe(true);
  });
});

describe("serverErrorOf: a server page's failed fetch as the route handler would answer it", () => {
  it("maps an upstream timeout to the same code, status and retry hint, as a plain serialisable value", async () => {
    const error = new UpstreamTimeoutError({ ...at, status: null, requestId: "req-42" }, "timeout");
    const served = serverErrorOf(error);
    const { status, body } = await answer(error);
    expect(served).toEqual({ status, code: body.error.code, message: body.error.message, retryable: true, requestId: "req-42" });
    expect(served.code).toBe("upstream_unavailable");
    // Crosses the server/client boundary unchanged: no Error instance, no prototype.
    expect(JSON.parse(JSON.stringify(served))).toEqual(served);
    expect(Object.getPrototypeOf(served)).toBe(Object.prototype);
  });

  it("keeps a refusal's code and says it is not retryable; an unexpected error becomes a generic, logged 500", () => {
    expect(serverErrorOf(new UpstreamForbiddenError({ ...at, status: 403 }, "ip", "ip_not_allowed"))).toMatchObject({
      status: 502,
      code: "upstream_ip_not_allowed",
      retryable: true,
    });
    const internal = serverErrorOf(new Error("secret detail postgres://user:pw@host"));
    expect(internal).toMatchObject({ status: 500, code: "internal", retryable: true });
    expect(internal.message).not.toContain("secret");
    expect(lines.join("\n")).toContain("unhandled_error");
  });
});
