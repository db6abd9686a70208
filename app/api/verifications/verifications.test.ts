import { sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";

import type {
  CreateVerificationResponse,
  VerificationDetailResponse,
  VerificationListResponse,
  VerificationMediaResponse,
} from "@/lib/verifications/types";
import { withPartnersHarness } from "@/test/partners-ops";

import { GET as getMedia } from "./[publicId]/media/route";
import { GET as getOne } from "./[publicId]/route";
import { POST as create, GET as list } from "./route";

/*
 * The verification routes, called as Next calls them, with real signed session cookies, against a real
 * sandbox: refused input never reaches the service, ids never change the upstream path, the service's
 * failures become their own states, and no answer carries a signed file URL.
 */

const h = withPartnersHarness({ UPSTREAM_TIMEOUT_MS: "1500" }, { clear: "faults and requests" });
const BASE = "http://localhost:3000/api/verifications";
/** Every body the routes answered, for the "never a signed URL" check at the end. */
const bodies: string[] = [];

async function call(response: Response | Promise<Response>) {
  const answered = await response;
  const text = await answered.text();
  bodies.push(text);
  return {
    status: answered.status,
    headers: answered.headers,
    text,
    body: JSON.parse(text) as Record<string, unknown> & {
      error?: { code: string; message: string; fields?: string[]; retryable?: boolean };
    },
  };
}

const listing = (query: string, cookie = h.analystCookie) => call(list(h.request(`${BASE}${query}`, { cookie })));
const one = (publicId: string, cookie = h.analystCookie) =>
  call(getOne(h.request(`${BASE}/${encodeURIComponent(publicId)}`, { cookie }), { params: Promise.resolve({ publicId }) }));
const media = (publicId: string, cookie = h.analystCookie) =>
  call(getMedia(h.request(`${BASE}/${encodeURIComponent(publicId)}/media`, { cookie }), { params: Promise.resolve({ publicId }) }));
const creating = (body: unknown, cookie = h.analystCookie) => call(create(h.request(BASE, { method: "POST", cookie, body })));

describe("who may", () => {
  it("refuses anonymous callers with 401 before any upstream call", async () => {
    expect((await call(list(h.request(BASE)))).status).toBe(401);
    expect((await call(getOne(h.request(`${BASE}/abc`), { params: Promise.resolve({ publicId: "abc" }) }))).status).toBe(401);
    expect((await call(getMedia(h.request(`${BASE}/abc/media`), { params: Promise.resolve({ publicId: "abc" }) }))).status).toBe(401);
    expect((await call(create(h.request(BASE, { method: "POST", body: {} })))).status).toBe(401);
    expect(await h.sandbox.requests()).toEqual([]);
  });
});

describe("GET /api/verifications", () => {
  it("filters by status and date range, forwarding only the allowed parameters", async () => {
    const response = await listing("?status=review&from=2026-01-01&to=2099-12-31&per_page=50");
    expect(response.status).toBe(200);
    expect(response.headers.get("cache-control")).toBe("no-store");
    const body = response.body as unknown as VerificationListResponse;
    expect(body.items.length).toBeGreaterThan(0);
    expect(body.items.every((item) => item.status === "review")).toBe(true);
    expect(body.pagination).toMatchObject({ page: 1, perPage: 50 });
    expect(body.pagingAvailable).toBe(true);

    const sent = await h.sandbox.requests();
    expect(sent).toHaveLength(1);
    expect(sent[0]!.path).toBe("/core/public/validations-persons");
    expect(sent[0]!.query.sort()).toEqual(["from", "page", "per_page", "status", "to"]);
  });

  it("sends several statuses comma-separated, pages, and shows masked documents as received", async () => {
    const first = (await listing("?status=approved&status=review&per_page=5")).body as unknown as VerificationListResponse;
    const second = (await listing("?status=review,approved&per_page=5&page=2")).body as unknown as VerificationListResponse;
    expect(first.items.every((item) => ["approved", "review"].includes(item.status))).toBe(true);
    expect(second.pagination.page).toBe(2);
    expect(second.items.map((item) => item.publicId)).not.toContain(first.items[0]!.publicId);
    // The embedded default key (sbx_core_view_media) lacks the unmasked permission.
    expect(first.items[0]!.document).toMatch(/^\*\*\*\.\d{3}\.\d{3}-\*\*$/);
    expect(first.items[0]!.documentMasked).toBe(true);
  });

  it("names unknown parameters with a 400, before any upstream call", async () => {
    const response = await listing("?status=review&sort=desc&integration_origin_public_id=x");
    expect(response.status).toBe(400);
    expect(response.body.error?.code).toBe("validation");
    expect(response.body.error?.fields).toEqual(["sort", "integration_origin_public_id"]);
    expect(response.body.error?.message).toContain("sort");
    expect(await h.sandbox.requests()).toEqual([]);
  });

  it.each([
    ["?per_page=abc", ["per_page"]],
    ["?per_page=1000", ["per_page"]],
    ["?per_page=0", ["per_page"]],
    ["?from=yesterday", ["from"]],
    ["?to=2026-02-30", ["to"]],
    ["?status=Review%3Bdrop", ["status"]],
    // Outside the service's closed set of statuses, however plausible.
    ["?status=foo", ["status"]],
    ["?status=approved,foo", ["status"]],
    ["?status=pending", ["status"]],
    ["?per_page=0x10", ["per_page"]],
    ["?page=1e3", ["page"]],
    ["?from=2026-10-31&to=2026-10-01", ["from"]],
    ["?page=-1&flow=a%20b", ["flow", "page"]],
  ])("refuses %s naming %j, before any upstream call", async (query, fields) => {
    const response = await listing(query);
    expect(response.status).toBe(400);
    expect(response.body.error?.fields?.sort()).toEqual([...fields].sort());
    expect(await h.sandbox.requests()).toEqual([]);
  });

  it("answers an empty page as such", async () => {
    const body = (await listing("?flow=no-such-flow")).body as unknown as VerificationListResponse;
    expect(body.items).toEqual([]);
    expect(body.pagination.total).toBe(0);
  });

  it("turns a timeout and a 5xx into a retryable 503", async () => {
    await h.sandbox.setFaults({ path_prefix: "/core", timeout_rate: 1 });
    const timedOut = await listing("");
    expect(timedOut.status).toBe(503);
    expect(timedOut.body.error).toMatchObject({ code: "upstream_unavailable", retryable: true });

    await h.sandbox.setFaults({ path_prefix: "/core", error_rate: 1, status: 502 });
    const failed = await listing("");
    expect(failed.status).toBe(503);
    expect(failed.body.error).toMatchObject({ code: "upstream_unavailable", retryable: true });
    expect(failed.text).not.toMatch(/stack|at \w+ \(/);
  });
});

describe("GET /api/verifications/[publicId]", () => {
  it("answers one verification with its steps, scores and notices", async () => {
    const listed = (await listing("?status=review&per_page=1")).body as unknown as VerificationListResponse;
    const publicId = listed.items[0]!.publicId;
    await h.sandbox.clearRequests();
    const response = await one(publicId);
    expect(response.status).toBe(200);
    const { verification } = response.body as unknown as VerificationDetailResponse;
    expect(verification.publicId).toBe(publicId);
    expect(verification.steps.map((step) => step.name)).toEqual(["ocr", "liveness", "facematch"]);
    expect(typeof verification.identityScore).toBe("number");
    expect(verification.steps.some((step) => step.notices.length > 0)).toBe(true);
    expect((await h.sandbox.requests()).map((request) => request.path)).toEqual([`/core/public/validations-persons/${publicId}`]);
  });

  it("answers a plain 404 for an unknown id", async () => {
    const response = await one("00000000-0000-4000-8000-000000000000");
    expect(response.status).toBe(404);
    // The service's request id rides along, so support can trace the call; nothing else does.
    expect(response.body.error).toEqual({ code: "not_found", message: "Not found.", requestId: expect.stringMatching(/^req_/) });
  });

  it.each(["../validations-persons", "..", "a/b", "abc%2Fdef", "%2F..%2Ffiles", "abc/files", "x?y=1", "a.b", "a#b", ""])(
    "refuses %j with 400 and never calls the service",
    async (publicId) => {
      const detail = await one(publicId);
      expect(detail.status).toBe(400);
      expect(detail.body.error?.fields).toEqual(["publicId"]);
      expect((await media(publicId)).status).toBe(400);
      expect(await h.sandbox.requests()).toEqual([]);
    },
  );
});

describe("GET /api/verifications/[publicId]/media", () => {
  it("gives a sealed /api/media token per file key, never the signed URL", async () => {
    const listed = (await listing("?status=approved&per_page=1")).body as unknown as VerificationListResponse;
    const publicId = listed.items[0]!.publicId;
    const response = await media(publicId);
    expect(response.status).toBe(200);
    expect(response.headers.get("cache-control")).toBe("no-store");
    const body = response.body as unknown as VerificationMediaResponse;
    expect(body.items.map((item) => item.key)).toEqual(["selfie", "document_front", "document_back"]);
    for (const item of body.items) {
      expect(item.available).toBe(true);
      if (!item.available) continue;
      expect(item.src).toMatch(/^\/api\/media\/Fe26\.2/);
      expect(item.mediaType).toBe("image/png");
      const life = Date.parse(item.expiresAt) - Date.now();
      expect(life).toBeGreaterThan(250_000);
      expect(life).toBeLessThanOrEqual(300_000);
      expect(item.expiresInSeconds).toBeGreaterThan(250);
      expect(item.expiresInSeconds).toBeLessThanOrEqual(300);
    }
    expect(response.text).not.toContain("/files/");
    expect(response.text).not.toContain("signature");
  });

  it("explains a missing selfie: liveness was not approved", async () => {
    const listed = (await listing("?status=reproved&per_page=100")).body as unknown as VerificationListResponse;
    const target = listed.items.find((item) => item.steps.find((step) => step.name === "liveness")?.state !== "approved");
    expect(target).toBeDefined();
    const body = (await media(target!.publicId)).body as unknown as VerificationMediaResponse;
    expect(body.items.find((item) => item.key === "selfie")).toEqual({ key: "selfie", available: false, reason: "liveness_not_approved" });
  });
});

describe("POST /api/verifications", () => {
  const valid = { schemaVersion: "1", refId: "case-42", document: { type: "cpf", number: "529.982.247-25" } };

  it("creates a verification and answers its public id", async () => {
    const response = await creating(valid);
    expect(response.status).toBe(201);
    const { created } = response.body as unknown as CreateVerificationResponse;
    expect(created.publicId).toBeTruthy();
    expect(created.refId).toBe("case-42");
    const sent = await h.sandbox.requests();
    expect(sent.map((request) => `${request.method} ${request.path}`)).toEqual(["POST /core/public/verifications"]);
    expect((await one(created.publicId!)).status).toBe(200);
  });

  it("sends an optional flow on (the new verification opens that flow) and refuses one that is not an id, by name", async () => {
    const response = await creating({ ...valid, refId: "case-flow-1", schemaVersion: "1.0", flowPublicId: "kyc-sow" });
    expect(response.status).toBe(201);
    const { created } = response.body as unknown as CreateVerificationResponse;
    expect(((await one(created.publicId!)).body as unknown as { verification: { flow?: string } }).verification.flow).toBe("kyc-sow");
    await h.sandbox.clearRequests();
    const refused = await creating({ ...valid, refId: "case-flow-2", flowPublicId: "kyc sow/../x" });
    expect(refused.status).toBe(400);
    expect(refused.body.error?.fields).toEqual(["flowPublicId"]);
    expect(await h.sandbox.requests()).toEqual([]);
  });

  it("refuses integration_origin_public_id by name, before any upstream call", async () => {
    const response = await creating({ ...valid, integration_origin_public_id: "origin-1" });
    expect(response.status).toBe(400);
    expect(response.body.error?.fields).toEqual(["integration_origin_public_id"]);
    expect(await h.sandbox.requests()).toEqual([]);
  });

  it("names missing and invalid fields, before any upstream call", async () => {
    const response = await creating({ schemaVersion: "", document: { type: "cpf", number: "" } });
    expect(response.status).toBe(400);
    expect(response.body.error?.fields).toEqual(["schemaVersion", "refId", "document.number"]);
    const cpf = await creating({ ...valid, document: { type: "cpf", number: "529.982.247-24" } });
    expect(cpf.body.error?.fields).toEqual(["document.number"]);
    // Document types are the service's closed set: an RG (or a CPF spelled otherwise) is refused here.
    for (const type of ["rg", "CPF ", "passport", ""]) {
      const other = await creating({ ...valid, document: { type, number: "123456789" } });
      expect(other.status).toBe(400);
      expect(other.body.error?.fields).toContain("document.type");
    }
    expect(
      (await call(create(h.request(BASE, { method: "POST", cookie: h.analystCookie, headers: { "content-type": "application/json" } }))))
        .status,
    ).toBe(400);
    expect(await h.sandbox.requests()).toEqual([]);
  });
});

describe("audit trail and leaks", () => {
  it("records list, detail and media views with their targets, and never a URL or token", async () => {
    const rows = await h.db.db.execute(
      sql`select action, target, outcome from audit_events where action like 'verification.%' order by id`,
    );
    const events = (rows as unknown as { rows: Array<{ action: string; target: string | null; outcome: string }> }).rows;
    const actions = new Set(events.map((event) => event.action));
    for (const action of ["verification.list", "verification.view", "verification.media", "verification.create"])
      expect(actions).toContain(action);
    expect(events.find((event) => event.action === "verification.view" && event.outcome === "success")?.target).toMatch(/^[0-9a-f-]{36}$/);
    const stored = await h.allText();
    expect(stored).not.toContain("/files/");
    expect(stored).not.toContain("Fe26.2");
    expect(stored).not.toMatch(/signature=/);
  });

  it("never answered or logged a signed file URL", () => {
    expect(bodies.length).toBeGreaterThan(20);
    for (const body of bodies) {
      expect(body).not.toContain(`${h.sandbox.url}/files`);
      expect(body).not.toContain("/files/");
    }
    const logs = h.logLines.join("\n");
    expect(logs).not.toContain("/files/");
    expect(logs).not.toContain("signature=");
  });
});
