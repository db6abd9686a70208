import { createRequire } from "node:module";
import path from "node:path";

import { NextRequest } from "next/server";
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";

import { restoreConfigEnv } from "@/test/config";
import { stubTestEnvironment } from "@/test/db";

import { GET, POST } from "./route";

/*
 * next-auth's endpoints read their bodies themselves (next-auth/next/utils getBody: `req.text()` for a form post,
 * whatever its size). Here next-auth is stood in for by exactly that read, so what it is handed is what the real
 * one would buffer: the route must hand it a body already read through the cap.
 */

const handed = vi.hoisted(() => ({ requests: [] as Request[] }));
vi.mock("next-auth", () => ({
  default: async (request: Request) => {
    handed.requests.push(request);
    const body = await nextAuthGetBody(request);
    return Response.json({ body: body ?? null });
  },
}));

// next-auth's own body reader (not in its package exports, so loaded by path).
const require = createRequire(import.meta.url);
const { getBody } = require(path.join(path.dirname(require.resolve("next-auth")), "next", "utils.js")) as {
  getBody: (request: Request) => Promise<unknown>;
};
async function nextAuthGetBody(request: Request): Promise<unknown> {
  return getBody(request);
}

const CALLBACK = "http://localhost:3000/api/auth/callback/credentials";
const context = { params: Promise.resolve({ nextauth: ["callback", "credentials"] }) };
const FORM = "application/x-www-form-urlencoded";

/** An endless-looking form body of `total` bytes that counts what is pulled from it. */
function countedStream(total: number, chunk = 4096) {
  const counter = { pulled: 0 };
  const bytes = new TextEncoder().encode("a".repeat(chunk));
  const stream = new ReadableStream<Uint8Array>({
    pull(controller) {
      if (counter.pulled >= total) return controller.close();
      counter.pulled += bytes.byteLength;
      controller.enqueue(bytes);
    },
  });
  return { stream, counter };
}

function post(body: BodyInit, headers: Record<string, string>) {
  return new NextRequest(CALLBACK, {
    method: "POST",
    headers: { "content-type": FORM, origin: "http://localhost:3000", ...headers },
    body,
    duplex: "half",
  } as ConstructorParameters<typeof NextRequest>[1]);
}

beforeAll(() => stubTestEnvironment());
afterAll(restoreConfigEnv);
beforeEach(() => {
  handed.requests = [];
});

describe("next-auth's body cap", () => {
  it("refuses a chunked 100 MB form post with 413 after reading little more than the cap, before next-auth sees it", async () => {
    const { stream, counter } = countedStream(100 * 1024 * 1024);
    const response = await POST(post(stream, {}), context);
    expect(response.status).toBe(413);
    expect(await response.json()).toMatchObject({ error: { code: "payload_too_large" } });
    expect(counter.pulled).toBeLessThan(64 * 1024);
    expect(handed.requests).toHaveLength(0);
  });

  it("refuses a declared oversized Content-Length without reading the body", async () => {
    const { stream, counter } = countedStream(100 * 1024 * 1024);
    const response = await POST(post(stream, { "content-length": String(100 * 1024 * 1024) }), context);
    expect(response.status).toBe(413);
    // A stream may pull its first chunk when it is made; nothing past it is read.
    expect(counter.pulled).toBeLessThanOrEqual(4096);
    expect(handed.requests).toHaveLength(0);
  });

  it("hands next-auth a small form post intact, and a GET as it came", async () => {
    const form = "csrfToken=abc&email=admin%40sandbox.local&password=p%C3%A1ss";
    const response = await POST(post(form, {}), context);
    expect(await response.json()).toEqual({ body: { csrfToken: "abc", email: "admin@sandbox.local", password: "páss" } });
    expect(handed.requests[0]!.url).toBe(CALLBACK);
    expect(handed.requests[0]!.headers.get("content-type")).toBe(FORM);

    const session = await GET(new NextRequest("http://localhost:3000/api/auth/session?x=1"), {
      params: Promise.resolve({ nextauth: ["session"] }),
    });
    expect(await session.json()).toEqual({ body: null });
    expect(new URL(handed.requests[1]!.url).search).toBe("?x=1");
  });
});
