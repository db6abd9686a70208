import fs from "node:fs";
import path from "node:path";

import { NextRequest } from "next/server";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";

import type { StaffUserDto } from "@/lib/auth/types";
import { config } from "@/lib/config";
import { sealMediaToken } from "@/lib/verifications/server/media-token";
import { apiRequest, createTestStaff, sessionCookieFor } from "@/test/auth";
import { setProcessDatabase, stubTestEnvironment, testDatabases, type TestDatabase } from "@/test/db";

/*
 * Every route handler under app/api, called as signed-out, analyst and admin, with a real signed
 * session cookie. The table below must name every route file and every method it exports: a new
 * handler without an entry fails this test. For the cells where the caller is allowed, the test only
 * asserts "neither 401 nor 403" (the handler may still refuse the empty input or find no upstream).
 *
 * Adding a route: add `"app/api/…/route.ts": { METHOD: { signedOut, analyst, admin, call? } }`.
 *
 * Every mutating handler (any method but GET) also gets three more cells, as an admin, without being
 * listed again: a foreign Origin is refused (403 cross_origin), a `text/plain` body is refused (415), and
 * a body over the cap is refused (413) while it is read. Only an entry marked `crossSite` (a receiver a
 * signature authenticates) skips the origin cell.
 */

type Cell = 401 | 403 | "allowed";
type Role = "signedOut" | "analyst" | "admin";
interface Call {
  /** Dynamic segments; a function when they depend on the caller (e.g. a token bound to the user). */
  params?: Record<string, string> | ((user: StaffUserDto | null) => Promise<Record<string, string>>);
  /** JSON body; a function when it must differ per call (an invitation's email). */
  body?: unknown | (() => unknown);
  search?: string;
}
interface Entry extends Record<Role, Cell>, Call {
  /** Why this handler cannot be called directly here (it must still be listed). */
  skip?: string;
  /** The route takes requests from other sites (the webhook receiver): no origin cell. */
  crossSite?: true;
}
type Method = "GET" | "POST" | "PUT" | "PATCH" | "DELETE";

const ANALYST: Record<Role, Cell> = { signedOut: 401, analyst: "allowed", admin: "allowed" };
const ADMIN: Record<Role, Cell> = { signedOut: 401, analyst: 403, admin: "allowed" };
const PUBLIC: Record<Role, Cell> = { signedOut: "allowed", analyst: "allowed", admin: "allowed" };
const PUBLIC_ID = "0b9a4c1e-5d2f-4e8a-9c71-3f6d2b8e4a10";

let counter = 0;
let patchTarget: StaffUserDto;

const MATRIX: Record<string, Partial<Record<Method, Entry>>> = {
  "app/api/auth/[...nextauth]/route.ts": {
    GET: { ...PUBLIC, skip: "next-auth's handler needs Next's request scope (next/headers); covered by e2e/auth.spec.ts" },
    POST: { ...PUBLIC, skip: "next-auth's handler needs Next's request scope (next/headers); covered by e2e/auth.spec.ts" },
  },
  "app/api/auth/sign-out/route.ts": {
    POST: { ...PUBLIC, skip: "it would end the sessions the later rows use; covered by app/api/auth/sign-out/route.test.ts" },
  },
  "app/api/health/route.ts": { GET: PUBLIC },
  "app/api/account/password/route.ts": { POST: { ...ANALYST, body: {} } },
  "app/api/staff/route.ts": {
    GET: ADMIN,
    POST: { ...ADMIN, body: () => ({ email: `matrix-${(counter += 1)}@test.local`, name: "Matrix", role: "analyst" }) },
  },
  "app/api/staff/[id]/route.ts": {
    PATCH: { ...ADMIN, params: async () => ({ id: patchTarget.id }), body: { role: "analyst" } },
  },
  "app/api/staff/[id]/unlock/route.ts": {
    POST: { ...ADMIN, params: async () => ({ id: patchTarget.id }), body: {} },
  },
  "app/api/verifications/route.ts": { GET: ANALYST, POST: { ...ANALYST, body: {} } },
  "app/api/verifications/[publicId]/route.ts": { GET: { ...ANALYST, params: { publicId: PUBLIC_ID } } },
  "app/api/verifications/[publicId]/media/route.ts": { GET: { ...ANALYST, params: { publicId: PUBLIC_ID } } },
  "app/api/verifications/export/route.ts": { GET: ANALYST },
  "app/api/overview/export/route.ts": { GET: ANALYST },
  "app/api/media/[token]/route.ts": {
    GET: {
      ...ANALYST,
      // A real token for the caller: a forged one is refused with 403 by design, which is not an auth cell.
      params: async (user) => ({
        token: await sealMediaToken(
          { userId: user?.id ?? "nobody", publicId: PUBLIC_ID, fileKey: "selfie", mediaType: "image/jpeg", expiresAt: Date.now() + 60_000 },
          config().secrets.mediaSeal,
        ),
      }),
    },
  },
  "app/api/lookups/cpf/route.ts": { POST: { ...ANALYST, body: {} } },
  "app/api/kyc/sessions/route.ts": { POST: { ...ANALYST, body: {} } },
  "app/api/sms/send/route.ts": { POST: { ...ANALYST, body: {} } },
  "app/api/sms/validate/route.ts": { POST: { ...ANALYST, body: {} } },
  "app/api/integrations/route.ts": { GET: ADMIN, POST: { ...ADMIN, body: {} } },
  "app/api/integrations/reveal/route.ts": { POST: { ...ADMIN, body: {} }, DELETE: ADMIN },
  "app/api/audit/route.ts": { GET: ADMIN },
  "app/api/cases/route.ts": { GET: ANALYST },
  "app/api/cases/reasons/route.ts": { GET: ANALYST },
  "app/api/cases/sync/route.ts": { POST: ADMIN },
  "app/api/cases/[publicId]/route.ts": { GET: { ...ANALYST, params: { publicId: PUBLIC_ID } } },
  "app/api/cases/[publicId]/assignment/route.ts": { POST: { ...ANALYST, params: { publicId: PUBLIC_ID }, body: {} } },
  "app/api/cases/[publicId]/notes/route.ts": { POST: { ...ANALYST, params: { publicId: PUBLIC_ID }, body: {} } },
  "app/api/cases/[publicId]/outcome/route.ts": { POST: { ...ANALYST, params: { publicId: PUBLIC_ID }, body: {} } },
  "app/api/cases/[publicId]/outcome/confirm/route.ts": { POST: { ...ANALYST, params: { publicId: PUBLIC_ID }, body: {} } },
  "app/api/search/route.ts": { POST: { ...ANALYST, body: {} } },
  "app/api/verification-events/route.ts": { GET: ANALYST },
  "app/api/verifications/[publicId]/events/route.ts": { GET: { ...ANALYST, params: { publicId: PUBLIC_ID } } },
  "app/api/webhooks/verification-events/route.ts": {
    POST: {
      ...PUBLIC,
      skip: "no session, authenticated by its signature instead: an unsigned call is a 401 by design (app/api/webhooks/verification-events/route.test.ts)",
    },
  },
};

const METHODS: Method[] = ["GET", "POST", "PUT", "PATCH", "DELETE"];
const ROOT = path.resolve(__dirname, "../..");

function routeFiles(directory = path.join(ROOT, "app/api")): string[] {
  return fs.readdirSync(directory, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(directory, entry.name);
    if (entry.isDirectory()) return routeFiles(full);
    return entry.name === "route.ts" ? [path.relative(ROOT, full).split(path.sep).join("/")] : [];
  });
}

type Handler = (request: Request, context: { params: Promise<Record<string, string>> }) => Promise<Response>;

const files = routeFiles().sort();
const modules = new Map<string, Partial<Record<Method, Handler>>>();

beforeAll(async () => {
  for (const file of files) modules.set(file, (await import(path.join(ROOT, file))) as Partial<Record<Method, Handler>>);
});

describe("the authorisation matrix", () => {
  it("has an entry for every route file and every method it exports", () => {
    const missing: string[] = [];
    for (const file of files) {
      const exported = METHODS.filter((method) => typeof modules.get(file)?.[method] === "function");
      for (const method of exported) if (!MATRIX[file]?.[method]) missing.push(`${method} ${file}`);
    }
    expect(missing, "add these handlers to MATRIX in app/api/authorization-matrix.test.ts").toEqual([]);
    expect(files.length).toBeGreaterThan(0);
  });
});

// One database is enough here: what is under test is the handlers' checks, not the driver.
const [database] = testDatabases();

describe("each handler answers each caller as the matrix says", () => {
  let handle: TestDatabase;
  const users: Record<Role, StaffUserDto | null> = { signedOut: null, analyst: null, admin: null };
  const cookies: Record<Role, string | undefined> = { signedOut: undefined, analyst: undefined, admin: undefined };

  beforeAll(async () => {
    // Upstream calls go to a closed port and fail fast: an allowed cell then answers 503, never 401/403.
    stubTestEnvironment({ SANDBOX_URL: "http://127.0.0.1:9", UPSTREAM_READ_RETRIES: "0", UPSTREAM_TIMEOUT_MS: "2000" });
    handle = await database!.open();
    setProcessDatabase(handle);
    for (const role of ["analyst", "admin"] as const) {
      const user = await createTestStaff(handle.db, { role });
      users[role] = user;
      cookies[role] = await sessionCookieFor(handle.db, user);
    }
    patchTarget = await createTestStaff(handle.db, { role: "analyst" });
  });
  afterAll(async () => {
    setProcessDatabase(undefined);
    await handle?.dispose();
    vi.unstubAllEnvs();
  });

  const cases = files.flatMap((file) =>
    METHODS.flatMap((method) => {
      const entry = MATRIX[file]?.[method];
      if (!entry) return [];
      return (["signedOut", "analyst", "admin"] as const).map((role) => ({ file, method, role, entry }));
    }),
  );

  // A cell that cannot run here is still listed, with the reason in its name.
  for (const { file, method, role, entry } of cases.filter((cell) => cell.entry.skip)) {
    it.skip(`${method} ${file} as ${role} (not run here: ${entry.skip})`, () => undefined);
  }

  it.for(cases.filter((cell) => !cell.entry.skip))("$method $file as $role", async ({ file, method, role, entry }) => {
    const handler = modules.get(file)?.[method];
    expect(handler).toBeTypeOf("function");
    const params = typeof entry.params === "function" ? await entry.params(users[role]) : (entry.params ?? {});
    const body = typeof entry.body === "function" ? (entry.body as () => unknown)() : entry.body;
    const url = `${file
      .replace(/^app/, "")
      .replace(/\/route\.ts$/, "")
      .replace(/\[([^\]]+)\]/g, (_, name: string) => params[name.replace("...", "")] ?? name)}${entry.search ?? ""}`;
    const response = await handler!(apiRequest(url, { method, cookie: cookies[role], body }), { params: Promise.resolve(params) });
    const expected = entry[role];
    if (expected === "allowed") {
      expect([401, 403], `${method} ${file} as ${role} answered ${response.status}`).not.toContain(response.status);
    } else {
      expect(response.status).toBe(expected);
      expect(response.headers.get("content-type")).toContain("application/json");
    }
  });
});

describe("every mutating handler refuses a foreign origin, a non-JSON body and an oversized body", () => {
  let handle: TestDatabase;
  let adminCookie: string;

  beforeAll(async () => {
    stubTestEnvironment({ SANDBOX_URL: "http://127.0.0.1:9", UPSTREAM_READ_RETRIES: "0", UPSTREAM_TIMEOUT_MS: "2000" });
    handle = await database!.open();
    setProcessDatabase(handle);
    const admin = await createTestStaff(handle.db, { role: "admin" });
    adminCookie = await sessionCookieFor(handle.db, admin);
    patchTarget = await createTestStaff(handle.db, { role: "analyst" });
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
    const url = new URL(
      file
        .replace(/^app/, "")
        .replace(/\/route\.ts$/, "")
        .replace(/\[([^\]]+)\]/g, (_, name: string) => params[name.replace("...", "")] ?? name),
      "http://localhost:3000",
    );
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
