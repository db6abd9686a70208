import "server-only";

import fs from "node:fs";
import path from "node:path";

import type { Permission } from "@/lib/auth/permissions";
import type { StaffUserDto } from "@/lib/auth/types";
import { config } from "@/lib/config";
import { sealMediaToken } from "@/lib/verifications/server/media-token";

/*
 * The route table the authorisation matrix (app/api/authorization-matrix.test.ts) and the request-shape cells
 * (app/api/request-shape.test.ts) both read: every route file under app/api, each method it exports with the
 * permission it needs and how to call it. A new handler without an entry in MATRIX fails the matrix.
 */

/** One permission, several the route needs together (its `permission` and `alsoNeeds`), any session, or none. */
export type Need = Permission | readonly [Permission, ...Permission[]] | "signed_in" | "public";
export type Caller = "signedOut" | "exact" | "allOthers";
export interface Call {
  /** Dynamic segments; a function when they depend on the caller (e.g. a token bound to the user). */
  params?: Record<string, string> | ((user: StaffUserDto | null) => Promise<Record<string, string>>);
  /** JSON body; a function when it must differ per call (an invitation's email). */
  body?: unknown | (() => unknown);
  search?: string;
}
export interface Entry extends Call {
  need: Need;
  /** Why this handler cannot be called directly here (it must still be listed). */
  skip?: string;
  /** The route takes requests from other sites (the webhook receiver): no origin cell. */
  crossSite?: true;
}
export type Method = "GET" | "POST" | "PUT" | "PATCH" | "DELETE";

export const PUBLIC_ID = "0b9a4c1e-5d2f-4e8a-9c71-3f6d2b8e4a10";
export const UNKNOWN_ROLE = "4f1d2c3b-9a8e-4d7c-8b6a-5e4f3d2c1b0a";

/**
 * What MATRIX's calls need from the suite that runs them, set in its beforeAll: the staff member the staff routes
 * change, and a custom role without permissions, which a member holding only staff.manage may invite into and
 * change its holders (delegation: one grants only what one holds, docs/permissions.md#delegation).
 */
export const matrixState = { counter: 0 } as { counter: number; patchTarget: StaffUserDto; emptyRole: string };

export const MATRIX: Record<string, Partial<Record<Method, Entry>>> = {
  "app/api/auth/[...nextauth]/route.ts": {
    GET: { need: "public", skip: "next-auth's handler needs Next's request scope (next/headers); covered by e2e/auth.spec.ts" },
    POST: { need: "public", skip: "next-auth's handler needs Next's request scope (next/headers); covered by e2e/auth.spec.ts" },
  },
  "app/api/auth/sign-out/route.ts": {
    POST: { need: "public", skip: "it would end the sessions the later rows use; covered by app/api/auth/sign-out/route.test.ts" },
  },
  "app/api/health/route.ts": { GET: { need: "public" } },
  // A 404 unless METRICS_TOKEN is set, then a bearer token, not a session: the matrix runs without it.
  "app/api/metrics/route.ts": { GET: { need: "public" } },
  // A 404 unless BENCH_ROUTES=on (embedded mode): the matrix runs without it.
  "app/api/bench/proxy/route.ts": { GET: { need: "public" } },
  // The bench's anchor outside the route kit (no permission to declare: it is the kit's cost being measured); a 404
  // unless BENCH_ROUTES=on, like the proxy.
  "app/api/bench/bare/route.ts": { GET: { need: "public" } },
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
    GET: { need: "staff.manage", params: async () => ({ id: matrixState.patchTarget.id }) },
    DELETE: { need: "staff.manage", params: async () => ({ id: matrixState.patchTarget.id }) },
  },
  "app/api/staff/[id]/factors/route.ts": { DELETE: { need: "staff.manage", params: async () => ({ id: matrixState.patchTarget.id }) } },
  "app/api/staff/route.ts": {
    GET: { need: "staff.manage" },
    POST: {
      need: "staff.manage",
      body: () => ({ email: `matrix-${(matrixState.counter += 1)}@test.local`, name: "Matrix", role: matrixState.emptyRole }),
    },
  },
  "app/api/staff/[id]/route.ts": {
    PATCH: {
      need: "staff.manage",
      params: async () => ({ id: matrixState.patchTarget.id }),
      body: () => ({ role: matrixState.emptyRole }),
    },
  },
  "app/api/staff/[id]/connections/route.ts": {
    GET: { need: "staff.manage", params: async () => ({ id: matrixState.patchTarget.id }) },
    PUT: { need: "staff.manage", params: async () => ({ id: matrixState.patchTarget.id }), body: { connections: null } },
  },
  "app/api/staff/[id]/unlock/route.ts": {
    POST: { need: "staff.manage", params: async () => ({ id: matrixState.patchTarget.id }), body: {} },
  },
  "app/api/permissions/route.ts": { GET: { need: "roles.manage" } },
  "app/api/roles/route.ts": {
    GET: { need: "roles.manage" },
    POST: { need: "roles.manage", body: () => ({ name: `Matrix role ${(matrixState.counter += 1)}`, permissions: [] }) },
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
  "app/api/analytics/team/route.ts": { GET: { need: "analytics.read" } },
  "app/api/privacy/retention/route.ts": { GET: { need: "privacy.report" } },
  "app/api/privacy/reports/route.ts": { POST: { need: "privacy.report", body: {} } },
  "app/api/privacy/erasures/route.ts": { GET: { need: "privacy.erase" }, POST: { need: "privacy.erase", body: {} } },
  "app/api/privacy/erasures/[id]/confirm/route.ts": { POST: { need: "privacy.erase", params: { id: PUBLIC_ID } } },
  "app/api/privacy/erasures/[id]/cancel/route.ts": { POST: { need: "privacy.erase", params: { id: PUBLIC_ID } } },
  "app/api/privacy/requests/route.ts": { GET: { need: "privacy.requests" }, POST: { need: "privacy.requests", body: {} } },
  "app/api/privacy/requests/[id]/close/route.ts": { POST: { need: "privacy.requests", params: { id: PUBLIC_ID }, body: {} } },
  "app/api/cases/[publicId]/suspicious-activity/route.ts": { POST: { need: "coaf.report", params: { publicId: PUBLIC_ID }, body: {} } },
  "app/api/suspicious-activity/route.ts": { GET: { need: "coaf.report" } },
  "app/api/suspicious-activity/[id]/filed/route.ts": { POST: { need: "coaf.report", params: { id: PUBLIC_ID }, body: {} } },
  "app/api/suspicious-activity/[id]/dossier/route.ts": { GET: { need: "coaf.report", params: { id: PUBLIC_ID } } },
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
  "app/api/verifications/[publicId]/record/route.ts": {
    POST: { need: ["lookups.run", "verifications.read"], params: { publicId: PUBLIC_ID }, body: {} },
  },
  "app/api/kyc/sessions/route.ts": { POST: { need: "kyc.start", body: {} } },
  "app/api/sms/send/route.ts": { POST: { need: "sms.send", body: {} } },
  "app/api/sms/validate/route.ts": { POST: { need: "sms.send", body: {} } },
  "app/api/integrations/route.ts": { GET: { need: "integrations.manage" }, POST: { need: "integrations.manage", body: {} } },
  "app/api/integrations/reveal/route.ts": { POST: { need: "integrations.manage", body: {} }, DELETE: { need: "integrations.manage" } },
  "app/api/integrations/[upstreamId]/retire/route.ts": { POST: { need: "integrations.manage", params: { upstreamId: "1" }, body: {} } },
  "app/api/upstream/calls/route.ts": { GET: { need: "integrations.manage" } },
  "app/api/webhooks/health/route.ts": { GET: { need: "integrations.manage" } },
  "app/api/connections/route.ts": { GET: { need: "signed_in" }, POST: { need: "integrations.manage", body: {} } },
  "app/api/connections/[id]/route.ts": { PATCH: { need: "integrations.manage", params: { id: "primary" }, body: {} } },
  "app/api/connections/[id]/test/route.ts": { POST: { need: "integrations.manage", params: { id: "primary" } } },
  "app/api/audit/route.ts": { GET: { need: "audit.read" } },
  "app/api/audit/checkpoints/route.ts": { GET: { need: "audit.export" } },
  "app/api/cases/route.ts": { GET: { need: "cases.read" } },
  "app/api/cases/reasons/route.ts": { GET: { need: "cases.read" } },
  "app/api/cases/sync/route.ts": { POST: { need: "cases.assign" } },
  "app/api/cases/routing/route.ts": { GET: { need: "cases.assign" }, PUT: { need: "cases.assign", body: {} } },
  "app/api/cases/settings/route.ts": { GET: { need: "cases.assign" }, PUT: { need: "cases.assign", body: {} } },
  "app/api/monitoring/run/route.ts": { POST: { need: "cases.assign" } },
  "app/api/monitoring/alerts/route.ts": { GET: { need: "cases.read" } },
  "app/api/monitoring/alerts/[id]/assignment/route.ts": { POST: { need: "cases.work", params: { id: PUBLIC_ID } } },
  "app/api/monitoring/alerts/[id]/outcome/route.ts": { POST: { need: "cases.work", params: { id: PUBLIC_ID }, body: {} } },
  "app/api/monitoring/alerts/[id]/notes/route.ts": {
    GET: { need: "cases.read", params: { id: PUBLIC_ID } },
    POST: { need: "cases.work", params: { id: PUBLIC_ID }, body: {} },
  },
  "app/api/monitoring/settings/route.ts": { GET: { need: "cases.assign" }, PUT: { need: "cases.assign", body: {} } },
  "app/api/cases/bulk/route.ts": { POST: { need: "cases.work", body: {} } },
  "app/api/cases/templates/route.ts": { GET: { need: "cases.work" }, POST: { need: "cases.work", body: {} } },
  "app/api/cases/templates/[id]/route.ts": {
    PATCH: { need: "cases.work", params: { id: PUBLIC_ID }, body: {} },
    DELETE: { need: "cases.work", params: { id: PUBLIC_ID } },
  },
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

export const METHODS: Method[] = ["GET", "POST", "PUT", "PATCH", "DELETE"];
const ROOT = path.resolve(__dirname, "..");

function routeFiles(directory = path.join(ROOT, "app/api")): string[] {
  return fs.readdirSync(directory, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(directory, entry.name);
    if (entry.isDirectory()) return routeFiles(full);
    return entry.name === "route.ts" ? [path.relative(ROOT, full).split(path.sep).join("/")] : [];
  });
}

export type Handler = (request: Request, context: { params: Promise<Record<string, string>> }) => Promise<Response>;

/** Every route file under app/api, sorted. */
export const files = routeFiles().sort();
/** Each route file's exports, once loadRouteModules has run (call it in a beforeAll). */
export const modules = new Map<string, Partial<Record<Method, Handler>>>();

export async function loadRouteModules(): Promise<void> {
  for (const file of files) modules.set(file, (await import(path.join(ROOT, file))) as Partial<Record<Method, Handler>>);
}

/** The path a route file answers, its dynamic segments filled from `params`. */
export function routePath(file: string, params: Record<string, string>): string {
  return file
    .replace(/^app/, "")
    .replace(/\/route\.ts$/, "")
    .replace(/\[([^\]]+)\]/g, (_, name: string) => params[name.replace("...", "")] ?? name);
}
