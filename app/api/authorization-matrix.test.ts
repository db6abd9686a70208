import fs from "node:fs";
import path from "node:path";

import { NextRequest } from "next/server";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";

import { PERMISSIONS, type Permission } from "@/lib/auth/permissions";
import { staffRoles } from "@/lib/auth/server/tables";
import { createStaff } from "@/lib/auth/server/staff-store";
import type { StaffUserDto } from "@/lib/auth/types";
import { config } from "@/lib/config";
import { sealMediaToken } from "@/lib/verifications/server/media-token";
import { apiRequest, createTestStaff, sessionCookieFor } from "@/test/auth";
import { setProcessDatabase, stubTestEnvironment, testDatabases, type TestDatabase } from "@/test/db";

/*
 * Every route handler under app/api, called with a real signed session cookie by:
 *
 *   - nobody signed in: 401, unless the route is public;
 *   - a member whose (custom) role holds exactly the permission the route needs: allowed;
 *   - a member holding every other permission of the catalogue: 403.
 *
 * The table below must name every route file and every method it exports, with the permission it needs: a new
 * handler without an entry fails this test. An allowed cell asserts the exact answer listed for it in ANSWERS:
 * a status, and for a refusal the error code too (the handler refusing the empty input with `validation`, an
 * unknown id with `not_found`, the closed upstream port with `upstream_unavailable`), so a handler that throws
 * (500) or refuses for another reason fails its cell. It runs on PGlite and, when TEST_DATABASE_URL is set, on
 * PostgreSQL.
 *
 * Adding a route: add `"app/api/…/route.ts": { METHOD: { need: "resource.action", call? } }` to MATRIX and
 * `"METHOD app/api/…/route.ts": status` (or `[status, "error_code"]`) to ANSWERS.
 *
 * Every mutating handler (any method but GET) also gets three more cells, as an admin, without being
 * listed again: a foreign Origin is refused (403 cross_origin), a `text/plain` body is refused (415), and
 * a body over the cap is refused (413) while it is read. Only an entry marked `crossSite` (a receiver a
 * signature authenticates) skips the origin cell.
 */

type Need = Permission | "signed_in" | "public";
type Caller = "signedOut" | "exact" | "allOthers";
interface Call {
  /** Dynamic segments; a function when they depend on the caller (e.g. a token bound to the user). */
  params?: Record<string, string> | ((user: StaffUserDto | null) => Promise<Record<string, string>>);
  /** JSON body; a function when it must differ per call (an invitation's email). */
  body?: unknown | (() => unknown);
  search?: string;
}
interface Entry extends Call {
  need: Need;
  /** Why this handler cannot be called directly here (it must still be listed). */
  skip?: string;
  /** The route takes requests from other sites (the webhook receiver): no origin cell. */
  crossSite?: true;
}
type Method = "GET" | "POST" | "PUT" | "PATCH" | "DELETE";

const PUBLIC_ID = "0b9a4c1e-5d2f-4e8a-9c71-3f6d2b8e4a10";
const UNKNOWN_ROLE = "4f1d2c3b-9a8e-4d7c-8b6a-5e4f3d2c1b0a";

let counter = 0;
let patchTarget: StaffUserDto;
// A custom role without permissions: a member holding only staff.manage may invite into it and change its holders
// (delegation: one grants only what one holds, docs/permissions.md#delegation).
let emptyRole: string;

const MATRIX: Record<string, Partial<Record<Method, Entry>>> = {
  "app/api/auth/[...nextauth]/route.ts": {
    GET: { need: "public", skip: "next-auth's handler needs Next's request scope (next/headers); covered by e2e/auth.spec.ts" },
    POST: { need: "public", skip: "next-auth's handler needs Next's request scope (next/headers); covered by e2e/auth.spec.ts" },
  },
  "app/api/auth/sign-out/route.ts": {
    POST: { need: "public", skip: "it would end the sessions the later rows use; covered by app/api/auth/sign-out/route.test.ts" },
  },
  "app/api/health/route.ts": { GET: { need: "public" } },
  // A 404 unless BENCH_ROUTES=on (embedded mode): the matrix runs without it.
  "app/api/bench/proxy/route.ts": { GET: { need: "public" } },
  "app/api/account/password/route.ts": { POST: { need: "signed_in", body: {} } },
  "app/api/account/availability/route.ts": { GET: { need: "signed_in" }, PUT: { need: "signed_in", body: {} } },
  "app/api/account/factors/route.ts": { GET: { need: "signed_in" } },
  "app/api/notifications/route.ts": { GET: { need: "signed_in" } },
  "app/api/notifications/read/route.ts": { POST: { need: "signed_in", body: { all: true } } },
  "app/api/account/factors/totp/route.ts": { POST: { need: "signed_in", body: {} } },
  "app/api/account/factors/totp/[id]/verify/route.ts": { POST: { need: "signed_in", params: { id: UNKNOWN_ROLE }, body: {} } },
  "app/api/account/factors/passkeys/options/route.ts": { POST: { need: "signed_in" } },
  "app/api/account/factors/passkeys/route.ts": { POST: { need: "signed_in", body: {} } },
  "app/api/account/factors/[id]/route.ts": { DELETE: { need: "signed_in", params: { id: UNKNOWN_ROLE } } },
  "app/api/account/step-up/route.ts": { POST: { need: "signed_in", body: {} } },
  "app/api/account/step-up/options/route.ts": { POST: { need: "signed_in" } },
  "app/api/account/sessions/route.ts": { GET: { need: "signed_in" }, DELETE: { need: "signed_in" } },
  "app/api/account/sessions/[id]/route.ts": { DELETE: { need: "signed_in", params: { id: UNKNOWN_ROLE } } },
  "app/api/auth/passkey/options/route.ts": { POST: { need: "public" } },
  "app/api/staff/[id]/sessions/route.ts": {
    GET: { need: "staff.manage", params: async () => ({ id: patchTarget.id }) },
    DELETE: { need: "staff.manage", params: async () => ({ id: patchTarget.id }) },
  },
  "app/api/staff/[id]/factors/route.ts": { DELETE: { need: "staff.manage", params: async () => ({ id: patchTarget.id }) } },
  "app/api/staff/route.ts": {
    GET: { need: "staff.manage" },
    POST: { need: "staff.manage", body: () => ({ email: `matrix-${(counter += 1)}@test.local`, name: "Matrix", role: emptyRole }) },
  },
  "app/api/staff/[id]/route.ts": {
    PATCH: { need: "staff.manage", params: async () => ({ id: patchTarget.id }), body: () => ({ role: emptyRole }) },
  },
  "app/api/staff/[id]/unlock/route.ts": {
    POST: { need: "staff.manage", params: async () => ({ id: patchTarget.id }), body: {} },
  },
  "app/api/permissions/route.ts": { GET: { need: "roles.manage" } },
  "app/api/roles/route.ts": {
    GET: { need: "roles.manage" },
    POST: { need: "roles.manage", body: () => ({ name: `Matrix role ${(counter += 1)}`, permissions: [] }) },
  },
  "app/api/roles/[id]/route.ts": {
    PATCH: { need: "roles.manage", params: { id: UNKNOWN_ROLE }, body: { permissions: [] } },
    DELETE: { need: "roles.manage", params: { id: UNKNOWN_ROLE } },
  },
  "app/api/verifications/route.ts": { GET: { need: "verifications.read" }, POST: { need: "verifications.create", body: {} } },
  "app/api/verifications/[publicId]/route.ts": { GET: { need: "verifications.read", params: { publicId: PUBLIC_ID } } },
  "app/api/verifications/[publicId]/media/route.ts": { GET: { need: "media.read", params: { publicId: PUBLIC_ID } } },
  "app/api/verifications/[publicId]/media/shown/route.ts": {
    POST: { need: "media.read", params: { publicId: PUBLIC_ID }, body: { files: ["selfie"] } },
  },
  "app/api/verifications/[publicId]/related/route.ts": { GET: { need: "verifications.read", params: { publicId: PUBLIC_ID } } },
  "app/api/verifications/[publicId]/crop/route.ts": {
    GET: { need: "media.read", params: { publicId: PUBLIC_ID } },
    PUT: { need: "verifications.crop", params: { publicId: PUBLIC_ID }, body: { x: 0.1, y: 0.1, w: 0.3, h: 0.3 } },
    DELETE: { need: "verifications.crop", params: { publicId: PUBLIC_ID } },
  },
  "app/api/verifications/export/route.ts": { GET: { need: "verifications.export" } },
  "app/api/overview/export/route.ts": { GET: { need: "verifications.read" } },
  "app/api/privacy/retention/route.ts": { GET: { need: "privacy.report" } },
  "app/api/privacy/reports/route.ts": { POST: { need: "privacy.report", body: {} } },
  "app/api/privacy/erasures/route.ts": { GET: { need: "privacy.erase" }, POST: { need: "privacy.erase", body: {} } },
  "app/api/privacy/erasures/[id]/confirm/route.ts": { POST: { need: "privacy.erase", params: { id: PUBLIC_ID } } },
  "app/api/privacy/erasures/[id]/cancel/route.ts": { POST: { need: "privacy.erase", params: { id: PUBLIC_ID } } },
  "app/api/media/[token]/route.ts": {
    GET: {
      need: "media.read",
      // A real token for the caller: a forged one is refused with 403 by design, which is not an auth cell.
      params: async (user) => ({
        token: await sealMediaToken(
          { userId: user?.id ?? "nobody", publicId: PUBLIC_ID, fileKey: "selfie", mediaType: "image/jpeg", expiresAt: Date.now() + 60_000 },
          config().secrets.mediaSeal,
        ),
      }),
    },
  },
  "app/api/lookups/cpf/route.ts": { POST: { need: "lookups.run", body: {} } },
  "app/api/kyc/sessions/route.ts": { POST: { need: "kyc.start", body: {} } },
  "app/api/sms/send/route.ts": { POST: { need: "sms.send", body: {} } },
  "app/api/sms/validate/route.ts": { POST: { need: "sms.send", body: {} } },
  "app/api/integrations/route.ts": { GET: { need: "integrations.manage" }, POST: { need: "integrations.manage", body: {} } },
  "app/api/integrations/reveal/route.ts": { POST: { need: "integrations.manage", body: {} }, DELETE: { need: "integrations.manage" } },
  "app/api/upstream/calls/route.ts": { GET: { need: "integrations.manage" } },
  "app/api/audit/route.ts": { GET: { need: "audit.read" } },
  "app/api/audit/checkpoints/route.ts": { GET: { need: "audit.export" } },
  "app/api/cases/route.ts": { GET: { need: "cases.read" } },
  "app/api/cases/reasons/route.ts": { GET: { need: "cases.read" } },
  "app/api/cases/sync/route.ts": { POST: { need: "cases.assign" } },
  "app/api/cases/routing/route.ts": { GET: { need: "cases.assign" }, PUT: { need: "cases.assign", body: {} } },
  "app/api/cases/bulk/route.ts": { POST: { need: "cases.work", body: {} } },
  "app/api/cases/[publicId]/route.ts": { GET: { need: "cases.read", params: { publicId: PUBLIC_ID } } },
  "app/api/cases/[publicId]/assignment/route.ts": { POST: { need: "cases.work", params: { publicId: PUBLIC_ID }, body: {} } },
  "app/api/cases/[publicId]/notes/route.ts": { POST: { need: "cases.work", params: { publicId: PUBLIC_ID }, body: {} } },
  "app/api/cases/[publicId]/reverification/route.ts": {
    POST: { need: "verifications.reverify", params: { publicId: PUBLIC_ID }, body: {} },
  },
  "app/api/cases/[publicId]/outcome/route.ts": { POST: { need: "cases.work", params: { publicId: PUBLIC_ID }, body: {} } },
  "app/api/cases/[publicId]/outcome/confirm/route.ts": { POST: { need: "cases.confirm", params: { publicId: PUBLIC_ID }, body: {} } },
  "app/api/search/route.ts": { POST: { need: "verifications.read", body: {} } },
  "app/api/verification-events/route.ts": { GET: { need: "verifications.read" } },
  "app/api/events/stream/route.ts": { GET: { need: "signed_in" } },
  "app/api/views/route.ts": {
    GET: { need: "signed_in" },
    // The page's own read permission is checked after the input (app/api/views/views.test.ts): an empty body is 400.
    POST: { need: "signed_in", body: {} },
  },
  "app/api/views/[id]/route.ts": { DELETE: { need: "signed_in", params: { id: PUBLIC_ID } } },
  "app/api/verifications/[publicId]/events/route.ts": { GET: { need: "verifications.read", params: { publicId: PUBLIC_ID } } },
  "app/api/webhooks/verification-events/route.ts": {
    POST: {
      need: "public",
      skip: "no session, authenticated by its signature instead: an unsigned call is a 401 by design (app/api/webhooks/verification-events/route.test.ts)",
    },
  },
};

/**
 * What the allowed caller gets, per handler: the status, and for a refusal the error code. Upstream calls go to a
 * closed port (503 `upstream_unavailable`); empty bodies are refused by the route's schema (400 `validation`).
 */
const ANSWERS: Record<string, number | [number, string]> = {
  "GET app/api/account/availability/route.ts": 200,
  "PUT app/api/account/availability/route.ts": [400, "validation"],
  "DELETE app/api/account/factors/[id]/route.ts": [404, "not_found"],
  "POST app/api/account/factors/passkeys/options/route.ts": 200,
  "POST app/api/account/factors/passkeys/route.ts": [400, "validation"],
  "GET app/api/account/factors/route.ts": 200,
  "POST app/api/account/factors/totp/[id]/verify/route.ts": [400, "validation"],
  "POST app/api/account/factors/totp/route.ts": [400, "validation"],
  "POST app/api/account/password/route.ts": [400, "validation"],
  "DELETE app/api/account/sessions/[id]/route.ts": [404, "not_found"],
  "DELETE app/api/account/sessions/route.ts": 200,
  "GET app/api/account/sessions/route.ts": 200,
  "POST app/api/account/step-up/options/route.ts": [409, "conflict"],
  "POST app/api/account/step-up/route.ts": [400, "validation"],
  "GET app/api/audit/checkpoints/route.ts": 200,
  "GET app/api/audit/route.ts": 200,
  "POST app/api/auth/passkey/options/route.ts": 200,
  "GET app/api/bench/proxy/route.ts": [404, "not_found"],
  "POST app/api/cases/[publicId]/assignment/route.ts": [400, "validation"],
  "POST app/api/cases/[publicId]/notes/route.ts": [400, "validation"],
  "POST app/api/cases/[publicId]/outcome/confirm/route.ts": [400, "validation"],
  "POST app/api/cases/[publicId]/outcome/route.ts": [400, "validation"],
  "POST app/api/cases/[publicId]/reverification/route.ts": [404, "not_found"],
  "GET app/api/cases/[publicId]/route.ts": 200,
  "POST app/api/cases/bulk/route.ts": [400, "validation"],
  "GET app/api/cases/reasons/route.ts": 200,
  "GET app/api/cases/route.ts": 200,
  "GET app/api/cases/routing/route.ts": 200,
  "PUT app/api/cases/routing/route.ts": [400, "validation"],
  "POST app/api/cases/sync/route.ts": [503, "upstream_unavailable"],
  "GET app/api/events/stream/route.ts": 200,
  "GET app/api/health/route.ts": 200,
  "DELETE app/api/integrations/reveal/route.ts": 200,
  "POST app/api/integrations/reveal/route.ts": [400, "validation"],
  "GET app/api/integrations/route.ts": 200,
  "POST app/api/integrations/route.ts": [400, "validation"],
  "POST app/api/kyc/sessions/route.ts": [400, "validation"],
  "POST app/api/lookups/cpf/route.ts": [400, "validation"],
  "GET app/api/media/[token]/route.ts": [503, "upstream_unavailable"],
  "POST app/api/notifications/read/route.ts": 200,
  "GET app/api/notifications/route.ts": 200,
  "GET app/api/overview/export/route.ts": [400, "validation"],
  "GET app/api/permissions/route.ts": 200,
  "POST app/api/privacy/erasures/[id]/cancel/route.ts": [404, "not_found"],
  "POST app/api/privacy/erasures/[id]/confirm/route.ts": [404, "not_found"],
  "GET app/api/privacy/erasures/route.ts": 200,
  "POST app/api/privacy/erasures/route.ts": [400, "validation"],
  "POST app/api/privacy/reports/route.ts": [400, "validation"],
  "GET app/api/privacy/retention/route.ts": 200,
  "DELETE app/api/roles/[id]/route.ts": [404, "not_found"],
  "PATCH app/api/roles/[id]/route.ts": [404, "not_found"],
  "GET app/api/roles/route.ts": 200,
  "POST app/api/roles/route.ts": 201,
  "POST app/api/search/route.ts": [400, "validation"],
  "POST app/api/sms/send/route.ts": [400, "validation"],
  "POST app/api/sms/validate/route.ts": [400, "validation"],
  "DELETE app/api/staff/[id]/factors/route.ts": 200,
  "PATCH app/api/staff/[id]/route.ts": 200,
  "DELETE app/api/staff/[id]/sessions/route.ts": 200,
  "GET app/api/staff/[id]/sessions/route.ts": 200,
  "POST app/api/staff/[id]/unlock/route.ts": 200,
  "GET app/api/staff/route.ts": 200,
  "POST app/api/staff/route.ts": 201,
  "GET app/api/upstream/calls/route.ts": 200,
  "GET app/api/verification-events/route.ts": 200,
  "DELETE app/api/verifications/[publicId]/crop/route.ts": 200,
  "GET app/api/verifications/[publicId]/crop/route.ts": 200,
  "PUT app/api/verifications/[publicId]/crop/route.ts": 200,
  "GET app/api/verifications/[publicId]/events/route.ts": 200,
  "GET app/api/verifications/[publicId]/media/route.ts": [503, "upstream_unavailable"],
  "POST app/api/verifications/[publicId]/media/shown/route.ts": 200,
  "GET app/api/verifications/[publicId]/related/route.ts": 200,
  "GET app/api/verifications/[publicId]/route.ts": [503, "upstream_unavailable"],
  "GET app/api/verifications/export/route.ts": [503, "upstream_unavailable"],
  "GET app/api/verifications/route.ts": [503, "upstream_unavailable"],
  "POST app/api/verifications/route.ts": [400, "validation"],
  "DELETE app/api/views/[id]/route.ts": [404, "not_found"],
  "GET app/api/views/route.ts": 200,
  "POST app/api/views/route.ts": [400, "validation"],
};

/** What each caller gets from a route needing `need`; null when the cell does not exist (a public route has no "others"). */
function expected(need: Need, caller: Caller): 401 | 403 | "allowed" | null {
  if (need === "public") return caller === "allOthers" ? null : "allowed";
  if (caller === "signedOut") return 401;
  if (caller === "exact") return "allowed";
  return need === "signed_in" ? null : 403;
}

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

/** A staff member whose custom role holds exactly `permissions`, and their session cookie. */
async function memberHolding(db: TestDatabase["db"], permissions: readonly Permission[]): Promise<{ user: StaffUserDto; cookie: string }> {
  const [role] = await db
    .insert(staffRoles)
    .values({ name: `matrix ${(counter += 1)} ${permissions.length}`, permissions: [...permissions] })
    .returning({ id: staffRoles.id });
  const user = await createStaff(db, {
    email: `matrix-member-${counter}-${Date.now()}@test.local`,
    name: "Matrix member",
    role: role!.id,
    passwordHash: null,
    mustChangePassword: false,
  });
  return { user, cookie: await sessionCookieFor(db, user) };
}

const NEEDS = [...new Set(Object.values(MATRIX).flatMap((methods) => Object.values(methods).map((entry) => entry.need)))];

describe.each(testDatabases())("each handler answers each caller by permission, on $name", ({ open }) => {
  let handle: TestDatabase;
  // Per needed permission: the member holding exactly it, and the member holding every other one.
  const members = new Map<string, { user: StaffUserDto; cookie: string }>();

  beforeAll(async () => {
    // Upstream calls go to a closed port and fail fast: an allowed cell then answers 503, never 401/403.
    stubTestEnvironment({ SANDBOX_URL: "http://127.0.0.1:9", UPSTREAM_READ_RETRIES: "0", UPSTREAM_TIMEOUT_MS: "2000" });
    handle = await open();
    setProcessDatabase(handle);
    for (const need of NEEDS) {
      if (need === "public") continue;
      const exact = need === "signed_in" ? [] : [need];
      members.set(`exact:${need}`, await memberHolding(handle.db, exact));
      members.set(
        `allOthers:${need}`,
        await memberHolding(
          handle.db,
          PERMISSIONS.filter((permission) => permission !== need),
        ),
      );
    }
    const [role] = await handle.db.insert(staffRoles).values({ name: "matrix empty", permissions: [] }).returning({ id: staffRoles.id });
    emptyRole = role!.id;
    patchTarget = await createStaff(handle.db, {
      email: `matrix-target-${Date.now()}@test.local`,
      name: "Matrix target",
      role: emptyRole,
      passwordHash: null,
      mustChangePassword: false,
    });
  });
  afterAll(async () => {
    setProcessDatabase(undefined);
    await handle?.dispose();
    vi.unstubAllEnvs();
  });

  const cells = files.flatMap((file) =>
    METHODS.flatMap((method) => {
      const entry = MATRIX[file]?.[method];
      if (!entry) return [];
      return (["signedOut", "exact", "allOthers"] as const).flatMap((caller) => {
        const expect = expected(entry.need, caller);
        return expect === null ? [] : [{ file, method, caller, entry, expect, need: entry.need }];
      });
    }),
  );

  it("holds a cell for every permission-checked handler and each kind of caller", () => {
    expect(cells.filter((cell) => cell.caller === "allOthers").length).toBeGreaterThanOrEqual(30);
  });

  // A cell that cannot run here is still listed, with the reason in its name.
  for (const { file, method, caller, entry } of cells.filter((cell) => cell.entry.skip)) {
    it.skip(`${method} ${file} as ${caller} (not run here: ${entry.skip})`, () => undefined);
  }

  it.for(cells.filter((cell) => !cell.entry.skip))(
    "$method $file ($need) as $caller",
    async ({ file, method, caller, entry, expect: want }) => {
      const handler = modules.get(file)?.[method];
      expect(handler).toBeTypeOf("function");
      const member = caller === "signedOut" ? null : members.get(`${caller}:${entry.need}`)!;
      const params = typeof entry.params === "function" ? await entry.params(member?.user ?? null) : (entry.params ?? {});
      const body = typeof entry.body === "function" ? (entry.body as () => unknown)() : entry.body;
      const url = `${file
        .replace(/^app/, "")
        .replace(/\/route\.ts$/, "")
        .replace(/\[([^\]]+)\]/g, (_, name: string) => params[name.replace("...", "")] ?? name)}${entry.search ?? ""}`;
      const response = await handler!(apiRequest(url, { method, cookie: member?.cookie, body }), { params: Promise.resolve(params) });
      if (want === "allowed") {
        const answer = ANSWERS[`${method} ${file}`];
        expect(answer, `add "${method} ${file}" to ANSWERS`).toBeDefined();
        const [status, code] = typeof answer === "number" ? [answer, undefined] : answer!;
        // A streamed answer (the live stream) is never read to its end: its status and headers are the cell.
        const error = code ? ((await response.json()) as { error?: { code?: string } }).error : undefined;
        expect({ status: response.status, code: error?.code }, `${method} ${file} as ${caller}`).toEqual({ status, code });
        if (!code) await response.body?.cancel();
      } else {
        expect(response.status).toBe(want);
        expect(response.headers.get("content-type")).toContain("application/json");
      }
    },
  );
});

// One database is enough for the request-shape cells: what is under test is the kit, not the driver.
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
