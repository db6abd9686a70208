import { NextRequest } from "next/server";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";

import { createTestStaff, sessionCookieFor } from "@/test/auth";
import { setProcessDatabase, stubTestEnvironment, testDatabases, type TestDatabase } from "@/test/db";
import { files, loadRouteModules, MATRIX, matrixState, METHODS, modules, routePath, type Entry, type Method } from "@/test/route-matrix";

/*
 * Every mutating handler (any method but GET) in the route table (test/route-matrix.ts), as an admin, without being
 * listed again: a foreign Origin is refused (403 cross_origin), a `text/plain` body is refused (415), and a body
 * over the cap is refused (413) while it is read. Only an entry marked `crossSite` (a receiver a signature
 * authenticates) skips the origin cell.
 */

beforeAll(loadRouteModules);

const [database] = testDatabases();

describe("every mutating handler refuses a foreign origin, a non-JSON body and an oversized body", () => {
  let handle: TestDatabase;
  let adminCookie: string;

  beforeAll(async () => {
    stubTestEnvironment({ SANDBOX_URL: "http://127.0.0.1:9", UPSTREAM_READ_RETRIES: "0", UPSTREAM_TIMEOUT_MS: "2000" });
    handle = await database!.open();
    setProcessDatabase(handle);
    const admin = await createTestStaff(handle.db, { role: "admin" });
    adminCookie = await sessionCookieFor(handle.db, admin);
    matrixState.patchTarget = await createTestStaff(handle.db, { role: "analyst" });
  });
  afterAll(async () => {
    setProcessDatabase(undefined);
    await handle?.dispose();
    vi.unstubAllEnvs();
  });

  const mutating = files.flatMap((file) =>
    METHODS.filter((method) => method !== "GET").flatMap((method) => {
      const entry = MATRIX[file]?.[method];
      return entry && !entry.skip ? [{ file, method, entry }] : [];
    }),
  );

  it("covers every mutating route found", () => {
    expect(mutating.length).toBeGreaterThanOrEqual(10);
  });

  async function call(file: string, method: Method, entry: Entry, init: { headers?: Record<string, string>; rawBody?: string }) {
    const handler = modules.get(file)?.[method];
    const params = typeof entry.params === "function" ? await entry.params(null) : (entry.params ?? {});
    const url = new URL(routePath(file, params), "http://localhost:3000");
    const request = new NextRequest(url, {
      method,
      headers: { cookie: adminCookie, origin: url.origin, "content-type": "application/json", ...init.headers },
      body: init.rawBody,
    });
    return handler!(request, { params: Promise.resolve(params) });
  }

  it.for(mutating.filter((cell) => !cell.entry.crossSite))("$method $file refuses a foreign Origin", async ({ file, method, entry }) => {
    const response = await call(file, method, entry, { headers: { origin: "http://localhost:3001" }, rawBody: "{}" });
    expect(response.status).toBe(403);
    expect(((await response.json()) as { error: { code: string } }).error.code).toBe("cross_origin");
  });

  it.for(mutating)("$method $file refuses a text/plain body", async ({ file, method, entry }) => {
    const response = await call(file, method, entry, { headers: { "content-type": "text/plain" }, rawBody: '{"a":1}' });
    expect(response.status).toBe(415);
  });

  it.for(mutating)("$method $file refuses a body over the cap, declared or not", async ({ file, method, entry }) => {
    const big = JSON.stringify({ padding: "x".repeat(1024 * 1024) });
    expect((await call(file, method, entry, { rawBody: big })).status).toBe(413);
    const declared = await call(file, method, entry, { headers: { "content-length": String(50 * 1024 * 1024) }, rawBody: "{}" });
    expect(declared.status).toBe(413);
  });
});
