import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";

import { PERMISSIONS, type Permission } from "@/lib/auth/permissions";
import { createStaff } from "@/lib/auth/server/staff-store";
import { staffRoles } from "@/lib/auth/server/tables";
import type { StaffUserDto } from "@/lib/auth/types";
import { apiRequest, sessionCookieFor } from "@/test/auth";
import { setProcessDatabase, stubTestEnvironment, testDatabases, type TestDatabase } from "@/test/db";
import { files, loadRouteModules, MATRIX, matrixState, METHODS, modules, routePath, type Caller, type Need } from "@/test/route-matrix";

/*
 * Every route handler under app/api, called with a real signed session cookie by:
 *
 *   - nobody signed in: 401, unless the route is public;
 *   - a member whose (custom) role holds exactly the permission the route needs: allowed;
 *   - a member holding every other permission of the catalogue: 403.
 *
 * The table (MATRIX, test/route-matrix.ts) must name every route file and every method it exports, with the
 * permission it needs: a new handler without an entry fails this test. An allowed cell asserts the exact answer
 * listed for it in ANSWERS: a status, and for a refusal the error code too (the handler refusing the empty input
 * with `validation`, an unknown id with `not_found`, the closed upstream port with `upstream_unavailable`), so a
 * handler that throws (500) or refuses for another reason fails its cell. It runs on PGlite and, when
 * TEST_DATABASE_URL is set, on PostgreSQL.
 *
 * Adding a route: add `"app/api/…/route.ts": { METHOD: { need: "resource.action", call? } }` to MATRIX and
 * `"METHOD app/api/…/route.ts": status` (or `[status, "error_code"]`) to ANSWERS.
 *
 * Every mutating handler also gets the request-shape cells (app/api/request-shape.test.ts) without being listed
 * again.
 */

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
  "GET app/api/bench/bare/route.ts": [404, "not_found"],
  // Off without METRICS_TOKEN (app/api/metrics/route.test.ts covers the token).
  "GET app/api/metrics/route.ts": [404, "not_found"],
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
  // No approved case and a budget of 0: the run screens nobody and calls nothing.
  "POST app/api/monitoring/run/route.ts": 200,
  "GET app/api/monitoring/alerts/route.ts": 200,
  "POST app/api/monitoring/alerts/[id]/assignment/route.ts": [404, "not_found"],
  "POST app/api/monitoring/alerts/[id]/outcome/route.ts": [400, "validation"],
  "GET app/api/monitoring/alerts/[id]/notes/route.ts": [404, "not_found"],
  "POST app/api/monitoring/alerts/[id]/notes/route.ts": [400, "validation"],
  "GET app/api/monitoring/settings/route.ts": 200,
  "PUT app/api/monitoring/settings/route.ts": [400, "validation"],
  "PUT app/api/cases/routing/route.ts": [400, "validation"],
  "GET app/api/cases/settings/route.ts": 200,
  "PUT app/api/cases/settings/route.ts": [400, "validation"],
  "GET app/api/cases/templates/route.ts": 200,
  "POST app/api/cases/templates/route.ts": [400, "validation"],
  "PATCH app/api/cases/templates/[id]/route.ts": [400, "validation"],
  "DELETE app/api/cases/templates/[id]/route.ts": [404, "not_found"],
  "POST app/api/cases/sync/route.ts": [503, "upstream_unavailable"],
  "GET app/api/connections/route.ts": 200,
  "POST app/api/connections/route.ts": [400, "validation"],
  "PATCH app/api/connections/[id]/route.ts": [400, "validation"],
  "POST app/api/connections/[id]/test/route.ts": 200,
  "GET app/api/events/stream/route.ts": 200,
  "GET app/api/health/route.ts": 200,
  "DELETE app/api/integrations/reveal/route.ts": 200,
  "POST app/api/integrations/reveal/route.ts": [400, "validation"],
  "GET app/api/integrations/route.ts": 200,
  "POST app/api/integrations/route.ts": [400, "validation"],
  "POST app/api/integrations/[upstreamId]/retire/route.ts": [400, "validation"],
  "POST app/api/kyc/sessions/route.ts": [400, "validation"],
  "POST app/api/lookups/cpf/route.ts": [400, "validation"],
  "POST app/api/verifications/[publicId]/record/route.ts": [400, "validation"],
  "GET app/api/media/[token]/route.ts": [503, "upstream_unavailable"],
  "POST app/api/notifications/read/route.ts": 200,
  "GET app/api/notifications/route.ts": 200,
  "GET app/api/overview/export/route.ts": [400, "validation"],
  "GET app/api/analytics/team/route.ts": 200,
  "GET app/api/permissions/route.ts": 200,
  "POST app/api/privacy/erasures/[id]/cancel/route.ts": [404, "not_found"],
  "POST app/api/privacy/erasures/[id]/confirm/route.ts": [404, "not_found"],
  "GET app/api/privacy/erasures/route.ts": 200,
  "POST app/api/privacy/erasures/route.ts": [400, "validation"],
  "POST app/api/privacy/reports/route.ts": [400, "validation"],
  "GET app/api/privacy/requests/route.ts": 200,
  "POST app/api/privacy/requests/route.ts": [400, "validation"],
  "POST app/api/privacy/requests/[id]/close/route.ts": [400, "validation"],
  "POST app/api/cases/[publicId]/suspicious-activity/route.ts": [400, "validation"],
  "GET app/api/suspicious-activity/route.ts": 200,
  "POST app/api/suspicious-activity/[id]/filed/route.ts": [400, "validation"],
  "GET app/api/suspicious-activity/[id]/dossier/route.ts": [404, "not_found"],
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
  "GET app/api/staff/[id]/connections/route.ts": 200,
  "PUT app/api/staff/[id]/connections/route.ts": 200,
  "GET app/api/staff/route.ts": 200,
  "POST app/api/staff/route.ts": 201,
  "GET app/api/upstream/calls/route.ts": 200,
  "GET app/api/webhooks/health/route.ts": 200,
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

beforeAll(loadRouteModules);

describe("the authorisation matrix", () => {
  it("has an entry for every route file and every method it exports", () => {
    const missing: string[] = [];
    for (const file of files) {
      const exported = METHODS.filter((method) => typeof modules.get(file)?.[method] === "function");
      for (const method of exported) if (!MATRIX[file]?.[method]) missing.push(`${method} ${file}`);
    }
    expect(missing, "add these handlers to MATRIX in test/route-matrix.ts").toEqual([]);
    expect(files.length).toBeGreaterThan(0);
  });
});

/** A staff member whose custom role holds exactly `permissions`, and their session cookie. */
async function memberHolding(db: TestDatabase["db"], permissions: readonly Permission[]): Promise<{ user: StaffUserDto; cookie: string }> {
  const [role] = await db
    .insert(staffRoles)
    .values({ name: `matrix ${(matrixState.counter += 1)} ${permissions.length}`, permissions: [...permissions] })
    .returning({ id: staffRoles.id });
  const user = await createStaff(db, {
    email: `matrix-member-${matrixState.counter}-${Date.now()}@test.local`,
    name: "Matrix member",
    role: role!.id,
    passwordHash: null,
    mustChangePassword: false,
  });
  return { user, cookie: await sessionCookieFor(db, user) };
}

/** A need's key in the members' map: a set of permissions by their names. */
const needKey = (need: Need) => (typeof need === "string" ? need : need.join("+"));
const NEEDS = [
  ...new Map(
    Object.values(MATRIX).flatMap((methods) => Object.values(methods).map((entry) => [needKey(entry.need), entry.need] as const)),
  ).values(),
];

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
      const exact: Permission[] = need === "signed_in" ? [] : typeof need === "string" ? [need] : [...need];
      members.set(`exact:${needKey(need)}`, await memberHolding(handle.db, exact));
      // Every other permission of the catalogue; for a route needing several, one member per missing one.
      for (const [index, missing] of exact.entries())
        members.set(
          `allOthers:${needKey(need)}${index === 0 ? "" : `#${index}`}`,
          await memberHolding(
            handle.db,
            PERMISSIONS.filter((permission) => permission !== missing),
          ),
        );
    }
    const [role] = await handle.db.insert(staffRoles).values({ name: "matrix empty", permissions: [] }).returning({ id: staffRoles.id });
    matrixState.emptyRole = role!.id;
    matrixState.patchTarget = await createStaff(handle.db, {
      email: `matrix-target-${Date.now()}@test.local`,
      name: "Matrix target",
      role: matrixState.emptyRole,
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
        if (expect === null) return [];
        const need = needKey(entry.need);
        // A route needing several permissions is refused to a member lacking any one of them: a cell per missing one.
        const missing = caller === "allOthers" && typeof entry.need !== "string" ? entry.need.map((_, index) => index) : [0];
        return missing.map((index) => ({
          file,
          method,
          caller,
          entry,
          expect,
          need,
          member: `${caller}:${need}${index === 0 ? "" : `#${index}`}`,
        }));
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
    "$method $file ($need) as $member",
    async ({ file, method, caller, entry, expect: want, member: memberKey }) => {
      const handler = modules.get(file)?.[method];
      expect(handler).toBeTypeOf("function");
      const member = caller === "signedOut" ? null : members.get(memberKey)!;
      const params = typeof entry.params === "function" ? await entry.params(member?.user ?? null) : (entry.params ?? {});
      const body = typeof entry.body === "function" ? (entry.body as () => unknown)() : entry.body;
      const url = `${routePath(file, params)}${entry.search ?? ""}`;
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
