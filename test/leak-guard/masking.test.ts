import { readdirSync } from "node:fs";
import path from "node:path";

import { afterAll, beforeAll, describe, expect, it } from "vitest";

import { GET as image } from "@/app/api/media/[token]/route";
import { GET as media } from "@/app/api/verifications/[publicId]/media/route";
import { GET as list } from "@/app/api/verifications/route";
import { PERMISSIONS, type Permission } from "@/lib/auth/permissions";
import { staffRoles } from "@/lib/auth/server/tables";
import { OVERVIEW_TABLES } from "@/lib/overview/tables";
import { isValidCpf } from "@/lib/shared/cpf";
import type { VerificationDetailResponse, VerificationListResponse, VerificationMediaResponse } from "@/lib/verifications/types";
import { createTestStaff, sessionCookieFor } from "@/test/auth";
import { startPartnersHarness, type PartnersHarness } from "@/test/partners-ops";
import { flatEvent, TEST_WEBHOOK_SECRET, webhookRequest } from "@/test/webhooks";

/*
 * The masking guard, built from the route table itself. With the sandbox key that holds every permission
 * (`sbx_core_unmasked`: CPFs, names and birth dates come back unmasked), a member whose role holds every permission
 * but `personal_data.unmasked` calls every handler under app/api: every GET, generically when its path has no
 * dynamic segment, and every other method whose answer carries personal data (search, lookups, the titular report,
 * KYC sessions), with the inputs INPUTS gives by path; the live stream is read for a bounded time. The guard
 * searches every answer for a full CPF (any 11-digit run whose check digits hold) and for the names and birth dates
 * the key returned (a webhook delivery carrying them was received first, so the stored events have them too).
 * A member holding the permission gets them (else the guard would check nothing).
 *
 * A route file that is neither callable generically nor in INPUTS fails the guard: a new route is guarded by adding
 * its inputs (or, for an answer that holds no titular's data, the reason) here, never by editing the guard itself.
 * A member without `media.read` gets no media token and no image, and the service is not asked.
 */

const ORIGIN = "http://localhost:3000";
const CPF_RUN = /(?<!\d)\d{3}\.?\d{3}\.?\d{3}-?\d{2}(?!\d)/g;
const METHODS = ["GET", "POST", "PUT", "PATCH", "DELETE"] as const;
type Method = (typeof METHODS)[number];
type Handler = (request: Request, context: { params: Promise<never> }) => Promise<Response>;

/** What a call needs from the data the guard set up. */
interface Ids {
  publicId: string;
  casePublicId: string;
  cpf: string;
  refId: string;
  staffId: string;
  mediaToken: string;
}

interface Call {
  label?: string;
  params?: Record<string, string | string[]>;
  query?: string;
  body?: unknown;
  headers?: Record<string, string>;
  /** Server-Sent Events: read for a bounded time, then closed. */
  stream?: true;
  /** A 5xx this call may answer by design (readiness is 503 while a dependency is slow). */
  mayFail?: number;
}

/** The inputs of each route that cannot be called generically, or why its answer holds no titular's data. */
type Inputs = { calls: (ids: Ids) => Call[] } | { skip: string };

const PURPOSE = "Masking guard check";
const MEMBER_ONLY = "answers the member's own account (factors, sessions, sign-in steps), no titular's data";
const ADMIN_ONLY = "answers staff, roles or keys, no titular's data";
const CASE_WORK = "changes a case and answers its id, status or owner; the case itself is read by GET /api/cases/[publicId]";

const INPUTS: Record<string, Inputs> = {
  // Generic GETs with more to see than their default answer.
  "GET /api/verifications": { calls: () => [{ query: "per_page=100" }, { query: "status=review&per_page=100" }] },
  "GET /api/verifications/export": { calls: () => [{ query: "status=review" }] },
  "GET /api/audit": { calls: () => [{}, { query: "format=csv" }] },
  "GET /api/cases": { calls: () => ["open", "mine", "unassigned", "confirming", "closed"].map((queue) => ({ query: `queue=${queue}` })) },
  "GET /api/overview/export": { calls: () => OVERVIEW_TABLES.map((table) => ({ query: `table=${table}` })) },
  "GET /api/verification-events": { calls: () => [{}, { query: "after=0" }] },
  "GET /api/events/stream": { calls: () => [{ query: "lastEventId=0", stream: true }] },
  "GET /api/health": { calls: () => [{}, { query: "ready", mayFail: 503 }] },
  // Dynamic segments.
  "GET /api/verifications/[publicId]": { calls: (ids) => [{ params: { publicId: ids.publicId } }] },
  "GET /api/verifications/[publicId]/events": { calls: (ids) => [{ params: { publicId: ids.publicId } }] },
  "GET /api/verifications/[publicId]/media": { calls: (ids) => [{ params: { publicId: ids.publicId } }] },
  "GET /api/verifications/[publicId]/related": { calls: (ids) => [{ params: { publicId: ids.publicId } }] },
  "GET /api/verifications/[publicId]/crop": { calls: (ids) => [{ params: { publicId: ids.publicId } }] },
  "GET /api/cases/[publicId]": { calls: (ids) => [{ params: { publicId: ids.casePublicId } }] },
  "GET /api/media/[token]": { calls: (ids) => [{ params: { token: ids.mediaToken } }] },
  "GET /api/staff/[id]/sessions": { calls: (ids) => [{ params: { id: ids.staffId } }] },
  "GET /api/auth/[...nextauth]": { skip: "next-auth's own endpoints: the member's own session, CSRF token and providers" },
  // Answers that carry a person's data.
  "POST /api/search": { calls: (ids) => [{ body: { ref_id: ids.refId } }, { body: { cpf: ids.cpf } }] },
  "POST /api/lookups/cpf": {
    calls: (ids) => (["receita", "history"] as const).map((source) => ({ body: { cpf: ids.cpf, source, purpose: PURPOSE } })),
  },
  "POST /api/privacy/reports": { calls: (ids) => (["json", "csv"] as const).map((format) => ({ body: { cpf: ids.cpf, format } })) },
  "POST /api/kyc/sessions": { calls: (ids) => [{ body: { cpf: ids.cpf, purpose: PURPOSE } }] },
  // Answers that hold no titular's data.
  "POST /api/verifications": { skip: "answers the new verification's id, status, ref_id and dates (CreateVerificationResponse)" },
  "POST /api/cases/[publicId]/reverification": { skip: "answers the new verification's id, its address and QR code" },
  "POST /api/cases/[publicId]/assignment": { skip: CASE_WORK },
  "POST /api/cases/[publicId]/notes": { skip: CASE_WORK },
  "POST /api/cases/[publicId]/outcome": { skip: CASE_WORK },
  "POST /api/cases/[publicId]/outcome/confirm": { skip: CASE_WORK },
  "POST /api/cases/bulk": { skip: CASE_WORK },
  "POST /api/cases/sync": { skip: "answers counts of cases opened and closed" },
  "PUT /api/cases/routing": { skip: "the team's queues and rules" },
  "PUT /api/verifications/[publicId]/crop": { skip: "answers the crop rectangle the member drew" },
  "DELETE /api/verifications/[publicId]/crop": { skip: "answers nothing but the removal" },
  "POST /api/verifications/[publicId]/media/shown": { skip: "records that images were shown; answers nothing" },
  "POST /api/sms/send": { skip: "answers the phone the member typed, formatted, and the resend delay" },
  "POST /api/sms/validate": { skip: "answers whether the code the member typed is valid" },
  "POST /api/webhooks/verification-events": { skip: "the service's deliveries (one carrying personal data is received in setup)" },
  "POST /api/privacy/erasures": { skip: "answers the request's id and status; the CPF is kept only as its keyed hash" },
  "POST /api/privacy/erasures/[id]/confirm": { skip: "answers the counts erased" },
  "POST /api/privacy/erasures/[id]/cancel": { skip: "answers the request's status" },
  "POST /api/notifications/read": { skip: "marks the member's notifications read" },
  "PUT /api/account/availability": { skip: MEMBER_ONLY },
  "DELETE /api/account/factors/[id]": { skip: MEMBER_ONLY },
  "POST /api/account/factors/passkeys/options": { skip: MEMBER_ONLY },
  "POST /api/account/factors/passkeys": { skip: MEMBER_ONLY },
  "POST /api/account/factors/totp": { skip: MEMBER_ONLY },
  "POST /api/account/factors/totp/[id]/verify": { skip: MEMBER_ONLY },
  "POST /api/account/password": { skip: MEMBER_ONLY },
  "DELETE /api/account/sessions/[id]": { skip: MEMBER_ONLY },
  "DELETE /api/account/sessions": { skip: MEMBER_ONLY },
  "POST /api/account/step-up/options": { skip: MEMBER_ONLY },
  "POST /api/account/step-up": { skip: MEMBER_ONLY },
  "POST /api/auth/passkey/options": { skip: MEMBER_ONLY },
  "POST /api/auth/sign-out": { skip: MEMBER_ONLY },
  "POST /api/auth/[...nextauth]": { skip: "next-auth's own endpoints: sign-in callbacks and sign-out" },
  "POST /api/integrations": { skip: ADMIN_ONLY },
  "POST /api/integrations/reveal": { skip: ADMIN_ONLY },
  "DELETE /api/integrations/reveal": { skip: ADMIN_ONLY },
  "PATCH /api/roles/[id]": { skip: ADMIN_ONLY },
  "DELETE /api/roles/[id]": { skip: ADMIN_ONLY },
  "POST /api/roles": { skip: ADMIN_ONLY },
  "POST /api/staff": { skip: ADMIN_ONLY },
  "PATCH /api/staff/[id]": { skip: ADMIN_ONLY },
  "DELETE /api/staff/[id]/factors": { skip: ADMIN_ONLY },
  "DELETE /api/staff/[id]/sessions": { skip: ADMIN_ONLY },
  "POST /api/staff/[id]/unlock": { skip: ADMIN_ONLY },
  "POST /api/views": { skip: "answers the member's saved list view (filters only)" },
  "DELETE /api/views/[id]": { skip: "removes the member's saved list view" },
};

/** Every handler under app/api: `METHOD /api/path` with its module's export. */
function routeTable(): Array<{ key: string; method: Method; path: string; file: string }> {
  const root = path.join(process.cwd(), "app", "api");
  const files = (readdirSync(root, { recursive: true }) as string[])
    .map((file) => file.split(path.sep).join("/"))
    .filter((file) => file === "route.ts" || file.endsWith("/route.ts"))
    .sort();
  return files.flatMap((file) => {
    const routePath = `/api/${file.replace(/\/?route\.ts$/, "")}`.replace(/\/$/, "");
    return METHODS.map((method) => ({ key: `${method} ${routePath}`, method, path: routePath, file: `app/api/${file}` }));
  });
}

type Loaded = { key: string; method: Method; path: string; handler: Handler };

async function loadRoutes(): Promise<Loaded[]> {
  const loaded: Loaded[] = [];
  for (const route of routeTable()) {
    const exported = (await import(/* @vite-ignore */ path.join(process.cwd(), route.file))) as Partial<Record<Method, Handler>>;
    const handler = exported[route.method];
    if (handler) loaded.push({ key: route.key, method: route.method, path: route.path, handler });
  }
  return loaded;
}

/** How the guard calls a route: its inputs, generically (a GET without dynamic segments), or not (the reason), or unknown. */
function callsOf(route: Loaded, ids: Ids): Call[] | { skip: string } | null {
  const inputs = INPUTS[route.key];
  if (inputs) return "skip" in inputs ? inputs : inputs.calls(ids);
  if (route.method === "GET" && !route.path.includes("[")) return [{}];
  return null;
}

let h: PartnersHarness;
let routes: Loaded[];

beforeAll(async () => {
  h = await startPartnersHarness({
    CORE_API_KEY: "sbx_core_unmasked",
    CORE_MAX_PER_PAGE: "100",
    // Every route is called, some while the machine runs other suites: a slow answer must not read as a 504.
    UPSTREAM_TIMEOUT_MS: "15000",
    WEBHOOK_SIGNING_SECRET: TEST_WEBHOOK_SECRET,
  });
  routes = await loadRoutes();
}, 120_000);
afterAll(async () => {
  await h?.dispose();
});

async function memberWith(permissions: readonly Permission[]): Promise<string> {
  const [role] = await h.db.db
    .insert(staffRoles)
    .values({ name: `Guard role ${Math.random().toString(36).slice(2, 8)}`, permissions: [...permissions] })
    .returning({ id: staffRoles.id });
  const member = await createTestStaff(h.db.db, { role: role!.id as never });
  return sessionCookieFor(h.db.db, member);
}

function fullCpfsIn(text: string): string[] {
  return [...text.matchAll(CPF_RUN)].map((match) => match[0]).filter(isValidCpf);
}

/** A bounded part of a stream's body: what arrives within `ms` or the first 64 KiB, then the stream is closed. */
async function boundedText(response: Response, abort: AbortController, ms = 1500): Promise<string> {
  const reader = response.body?.getReader();
  if (!reader) return "";
  const decoder = new TextDecoder();
  let text = "";
  const deadline = Date.now() + ms;
  while (text.length < 65_536) {
    const left = deadline - Date.now();
    if (left <= 0) break;
    const next = await Promise.race([reader.read(), new Promise<null>((resolve) => setTimeout(() => resolve(null), left))]);
    if (next === null || next.done) break;
    text += decoder.decode(next.value, { stream: true });
  }
  abort.abort();
  await reader.cancel().catch(() => undefined);
  return text;
}

interface Answer {
  label: string;
  key: string;
  status: number;
  text: string;
  mayFail?: number;
}

/** A media token issued to this member (tokens are bound to who asked), or a placeholder the image route refuses. */
async function mediaTokenOf(cookie: string, publicId: string): Promise<string> {
  const response = await media(h.request(`${ORIGIN}/api/verifications/${publicId}/media`, { cookie }), {
    params: Promise.resolve({ publicId }),
  });
  if (response.status !== 200) return "none";
  const found = ((await response.json()) as VerificationMediaResponse).items.find((item) => item.available);
  return found?.available ? decodeURIComponent(found.src.replace(/^\/api\/media\//, "")) : "none";
}

/** Every answer a member gets from every route the guard calls, as text (JSON, CSV, SSE, bytes). */
async function everyAnswer(cookie: string, shared: Omit<Ids, "mediaToken">): Promise<Answer[]> {
  const ids: Ids = { ...shared, mediaToken: await mediaTokenOf(cookie, shared.publicId) };
  const answers: Answer[] = [];
  for (const route of routes) {
    const calls = callsOf(route, ids);
    if (calls === null || !Array.isArray(calls)) continue;
    for (const call of calls) {
      const concrete = Object.entries(call.params ?? {}).reduce(
        (at, [name, value]) => at.replace(new RegExp(`\\[(\\.\\.\\.)?${name}\\]`), Array.isArray(value) ? value.join("/") : value),
        route.path,
      );
      const url = `${ORIGIN}${concrete}${call.query ? `?${call.query}` : ""}`;
      const abort = new AbortController();
      const built = h.request(url, { method: route.method, cookie, body: call.body, headers: call.headers });
      const request = call.stream ? new Request(built, { signal: abort.signal }) : built;
      const response = await route.handler(request, { params: Promise.resolve(call.params ?? {}) as Promise<never> });
      const text = call.stream ? await boundedText(response, abort) : await response.text();
      answers.push({
        label: `${route.method} ${url.slice(ORIGIN.length)}`,
        key: route.key,
        status: response.status,
        text,
        mayFail: call.mayFail,
      });
    }
  }
  return answers;
}

describe("a member without personal_data.unmasked, with a key that returns everything unmasked", () => {
  let ids: Omit<Ids, "mediaToken">;
  let unmaskedPeople: { names: string[]; birthDates: string[] };

  beforeAll(async () => {
    // Cases from the review list, so the queue and a case have something to show.
    expect((await call("POST /api/cases/sync", h.adminCookie)).status).toBeLessThan(300);
    const seen = (await (
      await list(h.request(`${ORIGIN}/api/verifications?status=review&per_page=100`, { cookie: h.analystCookie }))
    ).json()) as VerificationListResponse;
    const first = seen.items[0]!;
    unmaskedPeople = {
      names: seen.items
        .flatMap((item) => [item.person.name, item.person.motherName])
        .filter((name): name is string => !!name && !name.includes("*")),
      birthDates: seen.items.map((item) => item.person.birthDate).filter((date): date is string => !!date && !date.includes("*")),
    };
    // A delivery from the service that carries the person (unknown fields included): the stored events, the
    // verification's event history and the live stream must not hand them on.
    const webhook = routes.find((route) => route.key === "POST /api/webhooks/verification-events")!;
    const delivery = flatEvent(first.publicId, {
      document: first.document,
      name: first.person.name,
      birth_date: first.person.birthDate,
      holder: { full_name: first.person.name, cpf: first.document },
    });
    expect((await webhook.handler(webhookRequest(delivery), { params: Promise.resolve({}) as Promise<never> })).status).toBeLessThan(300);
    const queue = (await (await call("GET /api/cases", h.adminCookie, "queue=open")).json()) as { items: Array<{ publicId: string }> };
    ids = {
      publicId: first.publicId,
      casePublicId: queue.items[0]!.publicId,
      cpf: first.document,
      refId: "guard-ref",
      staffId: h.analystId,
    };
  }, 120_000);

  async function call(key: string, cookie: string, query?: string): Promise<Response> {
    const route = routes.find((entry) => entry.key === key)!;
    const [method, routePath] = key.split(" ") as [Method, string];
    return route.handler(h.request(`${ORIGIN}${routePath}${query ? `?${query}` : ""}`, { method, cookie }), {
      params: Promise.resolve({}) as Promise<never>,
    });
  }

  it("knows how to call every route under app/api, or why its answer holds no titular's data", () => {
    const unknown = routes.filter((route) => callsOf(route, { ...ids, mediaToken: "" }) === null).map((route) => route.key);
    expect(unknown, "add their inputs (or the reason) to INPUTS").toEqual([]);
    const keys = new Set(routes.map((route) => route.key));
    expect(
      Object.keys(INPUTS).filter((key) => !keys.has(key)),
      "INPUTS names routes that no longer exist",
    ).toEqual([]);
    // The routes the hand-written list missed are in the table now.
    for (const key of [
      "GET /api/verifications/[publicId]/related",
      "GET /api/overview/export",
      "GET /api/verification-events",
      "GET /api/events/stream",
    ]) {
      expect(keys.has(key), key).toBe(true);
    }
  });

  it("the key really returns unmasked data, and a member holding the permission gets it (the guard has something to find)", async () => {
    expect(isValidCpf(ids.cpf)).toBe(true);
    expect(unmaskedPeople.names.length).toBeGreaterThan(10);
    expect(unmaskedPeople.birthDates.length).toBeGreaterThan(10);
    const holder = await memberWith(PERMISSIONS);
    const answers = await everyAnswer(holder, ids);
    expect([...new Set(answers.filter((answer) => fullCpfsIn(answer.text).length > 0).map((answer) => answer.key))]).toEqual(
      expect.arrayContaining(["GET /api/verifications", "GET /api/verifications/[publicId]", "GET /api/verifications/export"]),
    );
  }, 180_000);

  it("never receives a full CPF, an unmasked name or birth date in any answer, and is told the dashboard masked it", async () => {
    const member = await memberWith(PERMISSIONS.filter((permission) => permission !== "personal_data.unmasked"));
    const answers = await everyAnswer(member, ids);
    expect(
      answers
        .filter((answer) => answer.status >= 500 && answer.status !== answer.mayFail)
        .map((answer) => `${answer.label}: ${answer.status}`),
    ).toEqual([]);
    // The answers that carry verification data each answered (a refusal would check nothing).
    const answered = new Set(answers.filter((answer) => answer.status === 200).map((answer) => answer.key));
    for (const key of [
      "GET /api/verifications",
      "GET /api/verifications/[publicId]",
      "GET /api/verifications/[publicId]/events",
      "GET /api/verifications/[publicId]/related",
      "GET /api/verifications/export",
      "GET /api/overview/export",
      "GET /api/verification-events",
      "GET /api/events/stream",
      "GET /api/cases",
      "GET /api/cases/[publicId]",
      "GET /api/media/[token]",
      "GET /api/audit",
      "POST /api/search",
      "POST /api/lookups/cpf",
      "POST /api/privacy/reports",
    ]) {
      expect(answered.has(key), key).toBe(true);
    }
    const leaks = answers.flatMap((answer) => [
      ...fullCpfsIn(answer.text).map(() => `${answer.label}: a full CPF`),
      ...unmaskedPeople.names.filter((name) => answer.text.includes(name)).map(() => `${answer.label}: a name`),
      ...unmaskedPeople.birthDates.filter((date) => answer.text.includes(`"${date}"`)).map(() => `${answer.label}: a birth date`),
    ]);
    expect([...new Set(leaks)]).toEqual([]);
    const one = JSON.parse(
      answers.find((answer) => answer.key === "GET /api/verifications/[publicId]")!.text,
    ) as VerificationDetailResponse;
    expect(one.verification).toMatchObject({ documentMasked: true, maskedBy: "dashboard" });
    const csv = answers
      .find((answer) => answer.key === "GET /api/verifications/export")!
      .text.split("\r\n")[1]!
      .split(",");
    expect(csv[3]).toBe("yes");
  }, 180_000);
});

describe("a member without media.read", () => {
  it("gets no media token and no image, and the service is not asked", async () => {
    const withMedia = await memberWith(["verifications.read", "media.read"]);
    const without = await memberWith(PERMISSIONS.filter((permission) => permission !== "media.read"));
    const publicId = (
      (await (
        await list(h.request(`${ORIGIN}/api/verifications?status=approved&per_page=1`, { cookie: withMedia }))
      ).json()) as VerificationListResponse
    ).items[0]!.publicId;
    const descriptors = (await (
      await media(h.request(`${ORIGIN}/api/verifications/${publicId}/media`, { cookie: withMedia }), {
        params: Promise.resolve({ publicId }),
      })
    ).json()) as VerificationMediaResponse;
    const src = descriptors.items.find((item) => item.available && item.key === "selfie");
    if (!src?.available) throw new Error("expected a selfie");
    const token = decodeURIComponent(src.src.replace(/^\/api\/media\//, ""));
    await h.sandbox.clearRequests();

    const refused = await media(h.request(`${ORIGIN}/api/verifications/${publicId}/media`, { cookie: without }), {
      params: Promise.resolve({ publicId }),
    });
    expect(refused.status).toBe(403);
    expect(await refused.text()).not.toContain("/api/media/");
    const picture = await image(h.request(`${ORIGIN}/api/media/${encodeURIComponent(token)}`, { cookie: without }), {
      params: Promise.resolve({ token }),
    });
    expect(picture.status).toBe(403);
    expect(picture.headers.get("content-type")).not.toMatch(/^image\//);
    expect(await h.sandbox.requests()).toEqual([]);
  });
});
