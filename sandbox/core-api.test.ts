import { afterAll, beforeAll, describe, expect, it } from "vitest";

import { startSandbox, type SandboxHandle } from "../test/sandbox";
import { core, cpfCheckDigitsOk, listAll, rawGet, type CoreErrorBody, type ListAnswer, type Verification } from "./test-support";

let sandbox: SandboxHandle;
let base: string;
let all: Verification[];

beforeAll(async () => {
  sandbox = await startSandbox();
  base = sandbox.url;
  all = await listAll(base, "sbx_core_unmasked");
});

afterAll(async () => {
  await sandbox?.stop();
});

const list = (query: string, key = "sbx_core_view") => core(base, `/public/validations-persons${query}`, key);

describe("core API: list", () => {
  it("pages the most recent verification of each person, newest first", async () => {
    const response = await list("");
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toMatch(/^application\/json/);
    const body = (await response.json()) as ListAnswer;
    expect(body.pagination).toEqual({ page: 1, per_page: 20, total: 500 });
    expect(body.data).toHaveLength(20);
    const times = body.data.map((item) => Date.parse(item.created_at));
    expect([...times].sort((a, b) => b - a)).toEqual(times);

    const second = (await (await list("?per_page=7&page=2")).json()) as ListAnswer;
    expect(second.pagination).toEqual({ page: 2, per_page: 7, total: 500 });
    expect(second.data.map((v) => v.public_id)).toEqual(all.slice(7, 14).map((v) => v.public_id));

    expect(all).toHaveLength(500);
    expect(new Set(all.map((v) => v.document)).size).toBe(500); // one per person
  });

  it("refuses an unknown query parameter with 400 E_VALIDATION_FAILURE naming it, not cached", async () => {
    const response = await list("?per_page=5&colour=blue");
    expect(response.status).toBe(400);
    expect(response.headers.get("cache-control")).toBe("no-store");
    const body = (await response.json()) as CoreErrorBody;
    expect(body.error.code).toBe("E_VALIDATION_FAILURE");
    expect(body.error.details.map((d) => d.field)).toEqual(["colour"]);
  });

  it("refuses malformed values naming the parameter", async () => {
    for (const [query, field] of [
      ["?per_page=abc", "per_page"],
      ["?per_page=101", "per_page"],
      ["?per_page=0", "per_page"],
      ["?from=yesterday", "from"],
      ["?to=2026-02-30", "to"],
      ["?page=0", "page"],
      ["?status=approved,maybe", "status"],
      ["?status=approved&status=review", "status"],
    ] as const) {
      const response = await list(query);
      expect(response.status, query).toBe(400);
      const body = (await response.json()) as CoreErrorBody;
      expect(body.error.code).toBe("E_VALIDATION_FAILURE");
      expect(
        body.error.details.map((d) => d.field),
        query,
      ).toContain(field);
    }
  });

  it("answers read routes with Cache-Control: no-store, success and error alike", async () => {
    const id = all[0]!.public_id;
    const responses = [
      await list("?per_page=1"),
      await core(base, `/public/validations-persons/${id}`, "sbx_core_view"),
      await core(base, `/public/validations-persons/${id}/files`, "sbx_core_view_media"),
      await core(base, "/public/validations-persons/00000000-0000-4000-8000-000000000000", "sbx_core_view"),
      await core(base, "/public/validations-persons", null),
      await core(base, "/public/validations-persons", "sbx_core_none"),
    ];
    expect(responses.map((r) => r.status)).toEqual([200, 200, 200, 404, 401, 403]);
    for (const response of responses) expect(response.headers.get("cache-control")).toBe("no-store");
  });

  it("filters by status (comma-separated), flow, journey and dates", async () => {
    const body = (await (await list("?status=approved,review&per_page=100")).json()) as ListAnswer;
    const expected = all.filter((v) => v.status === "approved" || v.status === "review");
    expect(body.pagination.total).toBe(expected.length);
    expect(body.pagination.total).toBeLessThan(500);
    expect(new Set(body.data.map((v) => v.status))).toEqual(new Set(["approved", "review"]));

    const flow = (await (await list("?flow=kyc-sow&journey=onboarding")).json()) as ListAnswer;
    expect(flow.pagination.total).toBe(all.filter((v) => v.flow === "kyc-sow" && v.journey === "onboarding").length);
    const none = (await (await list("?flow=no-such-flow")).json()) as ListAnswer;
    expect(none.pagination.total).toBe(0);

    // A São Paulo calendar day: [03:00Z, next day 03:00Z).
    const day = new Date(Date.parse(all[40]!.created_at) - 3 * 3600_000).toISOString().slice(0, 10);
    const start = Date.parse(`${day}T03:00:00Z`);
    const inDay = all.filter((v) => Date.parse(v.created_at) >= start && Date.parse(v.created_at) < start + 86_400_000);
    const dated = (await (await list(`?from=${day}&to=${day}&per_page=100`)).json()) as ListAnswer;
    expect(dated.pagination.total).toBe(inDay.length);
    expect(dated.pagination.total).toBeGreaterThan(0);

    const instant = all[10]!.created_at;
    const since = (await (await list(`?from=${encodeURIComponent(instant)}`)).json()) as ListAnswer;
    expect(since.pagination.total).toBe(11);
  });
});

describe("core API: keys and permissions", () => {
  it("needs X-API-Key: missing or unknown → 401 E_UNAUTHORIZED", async () => {
    for (const key of [null, "nope"]) {
      const response = await list("", key as string);
      expect(response.status).toBe(401);
      expect(((await response.json()) as CoreErrorBody).error.code).toBe("E_UNAUTHORIZED");
    }
  });

  it("applies the permission matrix (none; view; view+media; view+unmasked)", async () => {
    const id = all[0]!.public_id;
    const statuses = async (key: string) => [
      (await list("?per_page=1", key)).status,
      (await core(base, `/public/validations-persons/${id}`, key)).status,
      (await core(base, `/public/validations-persons/${id}/files`, key)).status,
    ];
    expect(await statuses("sbx_core_none")).toEqual([403, 403, 403]);
    expect(await statuses("sbx_core_view")).toEqual([200, 200, 403]);
    expect(await statuses("sbx_core_view_media")).toEqual([200, 200, 200]);
    expect(await statuses("sbx_core_unmasked")).toEqual([200, 200, 200]);
    const denied = (await (await list("", "sbx_core_none")).json()) as CoreErrorBody;
    expect(denied.error.code).toBe("E_PERMISSION_DENIED");

    const masked = (await (await core(base, `/public/validations-persons/${id}`, "sbx_core_view_media")).json()) as Verification;
    const clear = (await (await core(base, `/public/validations-persons/${id}`, "sbx_core_unmasked")).json()) as Verification;
    expect(clear.document).toMatch(/^\d{3}\.\d{3}\.\d{3}-\d{2}$/);
    expect(clear.birth_date).toMatch(/^\d{4}-\d{2}-\d{2}$/);
    expect(masked.document).toBe(`***.${clear.document.slice(4, 7)}.${clear.document.slice(8, 11)}-**`);
    expect(masked.name).toBe(
      clear.name
        .split(" ")
        .map((word) => `${[...word][0]}***`)
        .join(" "),
    );
    expect(masked.mother_name).toBe(
      clear.mother_name
        .split(" ")
        .map((word) => `${[...word][0]}***`)
        .join(" "),
    );
    expect(masked.birth_date).toBe("****-**-**");
    expect(masked.steps).toEqual(clear.steps);
  });

  it("masks as ***.456.789-**", async () => {
    const body = (await (await list("?per_page=100")).json()) as ListAnswer;
    for (const item of body.data) expect(item.document).toMatch(/^\*\*\*\.\d{3}\.\d{3}-\*\*$/);
  });

  it("hides verifications of the other environment and of other integrations (404, same body)", async () => {
    const id = all[0]!.public_id;
    const production = await core(base, `/public/validations-persons/${id}`, "sbx_core_production");
    const other = await core(base, `/public/validations-persons/${id}`, "sbx_core_other_integration");
    const unknown = await core(base, "/public/validations-persons/5b0b6f64-5a43-4f0e-9d5c-2f4f4b0b4c11", "sbx_core_unmasked");
    expect([production.status, other.status, unknown.status]).toEqual([404, 404, 404]);
    const bodies = [await production.json(), await other.json(), await unknown.json()];
    expect(bodies[0]).toEqual(bodies[2]);
    expect(bodies[1]).toEqual(bodies[2]);
    expect((bodies[0] as CoreErrorBody).error.code).toBe("E_NOT_FOUND");
    expect((await core(base, `/public/validations-persons/${id}/files`, "sbx_core_production")).status).toBe(404);

    const productionList = (await (await list("", "sbx_core_production")).json()) as ListAnswer;
    const otherList = (await (await list("", "sbx_core_other_integration")).json()) as ListAnswer;
    expect(productionList.pagination.total).toBe(50);
    expect(otherList.pagination.total).toBe(50);
    const mainIds = new Set(all.map((v) => v.public_id));
    for (const item of [...productionList.data, ...otherList.data]) expect(mainIds.has(item.public_id)).toBe(false);
  });

  it("rejects an IP-restricted key with 403 before anything else, even an unknown parameter", async () => {
    const id = all[0]!.public_id;
    for (const path of [
      "/public/validations-persons?colour=blue",
      `/public/validations-persons/${id}?x=1`,
      `/public/validations-persons/${id}/files?`,
    ]) {
      const response = await rawGet(base, `/core${path}`, { "x-api-key": "sbx_core_ip_restricted" });
      expect(response.status, path).toBe(403);
      expect(response.headers["cache-control"]).toBe("no-store");
      expect((JSON.parse(response.body) as CoreErrorBody).error.code).toBe("E_IP_NOT_ALLOWED");
    }
  });
});

describe("core API: fetch and files", () => {
  it("fetch refuses any query parameter", async () => {
    const response = await core(base, `/public/validations-persons/${all[0]!.public_id}?fields=all`, "sbx_core_view");
    expect(response.status).toBe(400);
    expect(((await response.json()) as CoreErrorBody).error.details.map((d) => d.field)).toEqual(["fields"]);
  });

  it("files refuses any query string, even a bare ?", async () => {
    const id = all[0]!.public_id;
    for (const suffix of ["?", "?x=1", "?expires=1"]) {
      const response = await rawGet(base, `/core/public/validations-persons/${id}/files${suffix}`, { "x-api-key": "sbx_core_view_media" });
      expect(response.status, suffix).toBe(400);
      expect(response.headers["cache-control"]).toBe("no-store");
      expect((JSON.parse(response.body) as CoreErrorBody).error.code).toBe("E_VALIDATION_FAILURE");
    }
    expect((await rawGet(base, `/core/public/validations-persons/${id}/files`, { "x-api-key": "sbx_core_view_media" })).status).toBe(200);
  });

  it("files: selfie null when liveness was not approved; documents when OCR ran", async () => {
    const noLiveness = all.find((v) => v.steps.liveness.state !== "approved" && v.steps.ocr.state !== "pending")!;
    const approved = all.find((v) => v.status === "approved")!;
    const notOpened = all.find((v) => v.status === "not_opened")!;
    const files = async (id: string) =>
      (await (await core(base, `/public/validations-persons/${id}/files`, "sbx_core_view_media")).json()) as Record<
        string,
        { url: string; expires_in: number; file: { public_id: string; type: string } } | null
      >;

    const a = await files(noLiveness.public_id);
    expect(Object.keys(a)).toEqual(["selfie", "document_back", "document_front"]);
    expect(a.selfie).toBeNull();
    expect(a.document_front).not.toBeNull();
    expect(a.document_back).not.toBeNull();

    const b = await files(approved.public_id);
    expect(b.selfie).toMatchObject({ expires_in: 300, file: { type: "image/png" } });
    expect(b.selfie!.url).toMatch(new RegExp(`^${base}/files/${b.selfie!.file.public_id}\\?expires=\\d+&signature=[0-9a-f]{64}$`));

    const c = await files(notOpened.public_id);
    expect(c).toEqual({ selfie: null, document_back: null, document_front: null });
  });
});

describe("core API: creation", () => {
  const create = (body: unknown, key = "sbx_core_view", contentType = "application/json") =>
    core(base, "/public/verifications", key, { method: "POST", headers: { "content-type": contentType }, body: JSON.stringify(body) });
  let refs = 0;
  // Each call its own ref_id unless the test repeats one on purpose (creation is idempotent on ref_id).
  const fresh = () => ({
    schema_version: "1.0",
    ref_id: `order-${++refs}-${Date.now()}`,
    document: { type: "cpf", number: "529.982.247-25" },
  });
  const valid = { schema_version: "1.0", ref_id: "order-42", document: { type: "cpf", number: "529.982.247-25" } };
  type Created = {
    verification: { public_id: string; status: string; ref_id: string; created_at: string; expires_at: string };
    entry: { kind: string; url: string };
    sdkUrl: string;
  };

  it("refuses integration_origin_public_id with 400 E_VALIDATION_FAILURE", async () => {
    const response = await create({ ...valid, integration_origin_public_id: "abc" });
    expect(response.status).toBe(400);
    const body = (await response.json()) as CoreErrorBody;
    expect(body.error.code).toBe("E_VALIDATION_FAILURE");
    expect(body.error.details.map((d) => d.field)).toEqual(["integration_origin_public_id"]);
  });

  it("names missing or mistyped fields; accepts unknown extra fields", async () => {
    const response = await create({ schema_version: 1, document: { type: "cpf", number: "529.982.247-26" } });
    expect(response.status).toBe(400);
    const fields = ((await response.json()) as CoreErrorBody).error.details.map((d) => d.field);
    expect(fields).toEqual(["schema_version", "ref_id", "document.number"]);
    expect((await create({ ...fresh(), channel: "app" })).status).toBe(201);
    expect((await create(fresh(), "bad-key")).status).toBe(401);
    expect((await create(fresh(), "sbx_core_view", "text/plain")).status).toBe(415);
  });

  it("creates a not_opened verification that is then fetchable and replaces the person's older one in the list", async () => {
    const old = all[100]!;
    const response = await create({ ...valid, document: { type: "CPF", number: old.document.replace(/\D/g, "") } }, "sbx_core_none");
    expect(response.status).toBe(201);
    const answer = (await response.json()) as Created;
    const created = answer.verification;
    // api/verification-statuses.mdx: not_opened, the person has not opened the flow yet.
    expect(created).toMatchObject({ status: "not_opened", ref_id: "order-42" });
    expect(Date.parse(created.expires_at)).toBeGreaterThan(Date.parse(created.created_at));
    expect(answer.entry).toEqual({ kind: "web", url: `${base}/widget/${created.public_id}?lang=pt-BR` });
    // api/verifications.mdx names the answer sdkUrl: the same address.
    expect(answer.sdkUrl).toBe(answer.entry.url);
    expect((await fetch(answer.entry.url)).status).toBe(200);

    const fetched = (await (
      await core(base, `/public/validations-persons/${created.public_id}`, "sbx_core_unmasked")
    ).json()) as Verification;
    expect(fetched).toMatchObject({
      public_id: created.public_id,
      status: "not_opened",
      expires_at: created.expires_at,
      document: old.document,
      name: old.name,
      decided_at: null,
    });
    expect(fetched.steps.liveness.state).toBe("pending");

    const page = (await (await list("?per_page=100", "sbx_core_unmasked")).json()) as ListAnswer;
    expect(page.data[0]!.public_id).toBe(created.public_id);
    const ids = (await listAll(base, "sbx_core_unmasked")).map((v) => v.public_id);
    expect(ids).not.toContain(old.public_id);
    expect(new Set(ids).size).toBe(ids.length);
    // The older verification still exists.
    expect((await core(base, `/public/validations-persons/${old.public_id}`, "sbx_core_view")).status).toBe(200);
  });

  it("creation ignores the IP allow-list (not a read route) and files into the key's environment", async () => {
    expect((await create(fresh(), "sbx_core_ip_restricted")).status).toBe(201);
    const created = ((await (await create(fresh(), "sbx_core_production")).json()) as Created).verification;
    expect((await core(base, `/public/validations-persons/${created.public_id}`, "sbx_core_production")).status).toBe(200);
    expect((await core(base, `/public/validations-persons/${created.public_id}`, "sbx_core_unmasked")).status).toBe(404);
  });
});

describe("core API: data", () => {
  it("is realistic and consistent", () => {
    const statuses = new Set(all.map((v) => v.status));
    expect(statuses).toEqual(new Set(["approved", "review", "reproved", "started", "not_opened"]));
    const similarities = all.map((v) => v.steps.facematch.similarity).filter((s): s is number => s !== null);
    expect(similarities.some((s) => s < 80)).toBe(true);
    expect(similarities.some((s) => s >= 80)).toBe(true);
    expect(all.some((v) => v.pep && typeof v.pep_origin === "string" && v.pep_origin.length > 0)).toBe(true);
    expect(all.some((v) => v.restrictive_lists.length > 0)).toBe(true);
    expect(all.some((v) => v.steps.ocr.notices.some((n) => n.code === "OCR_MISMATCH_NAME"))).toBe(true);
    const now = Date.now();
    for (const v of all) {
      expect(cpfCheckDigitsOk(v.document), v.document).toBe(true);
      expect(now - Date.parse(v.created_at)).toBeLessThan(91 * 86_400_000);
      expect(v.identity_score).toBeGreaterThanOrEqual(0);
      expect(v.risk_score).toBeLessThanOrEqual(100);
      expect(v.pep_origin === null).toBe(!v.pep);
      // decided_at only on an outcome (api/verification-statuses.mdx); scores on 0..100 (api/webhooks.mdx).
      const final = ["approved", "reproved"].includes(v.status);
      expect(v.identity_score).toBeLessThanOrEqual(100);
      expect(v.decided_at !== null).toBe(final);
      if (v.decided_at) expect(Date.parse(v.decided_at)).toBeGreaterThanOrEqual(Date.parse(v.created_at));
      const states = [v.steps.ocr.state, v.steps.liveness.state, v.steps.facematch.state];
      if (v.status === "approved") expect(states).toEqual(["approved", "approved", "approved"]);
      if (v.status === "review") expect(states).toContain("review");
      if (v.status === "reproved") expect(states).toContain("reproved");
      if (v.status === "started") expect(states).toContain("pending");
      if (v.status === "not_opened") expect(states).toEqual(["pending", "pending", "pending"]);
      if (v.steps.facematch.state === "approved") expect(v.steps.facematch.similarity).toBeGreaterThanOrEqual(80);
      if (v.steps.liveness.state === "pending") expect(v.steps.liveness.score).toBeNull();
      for (const notice of [...v.steps.ocr.notices, ...v.steps.liveness.notices, ...v.steps.facematch.notices]) {
        expect(Object.keys(notice)).toEqual(["code", "message"]);
      }
      if (v.steps.ocr.state === "review") expect(v.steps.ocr.notices).toHaveLength(1);
      if (v.steps.ocr.state === "reproved") expect(v.steps.ocr.notices.length).toBeGreaterThan(1);
    }
  });

  it("is deterministic for a seed", async () => {
    const again = await startSandbox();
    try {
      const body = (await (await core(again.url, "/public/validations-persons?per_page=50", "sbx_core_unmasked")).json()) as ListAnswer;
      const strip = (v: Verification) => ({ ...v, created_at: undefined, decided_at: undefined, expires_at: undefined });
      expect(body.data.map(strip)).toEqual(all.slice(0, 50).map(strip));
    } finally {
      await again.stop();
    }
  });
});

describe("core API: routing", () => {
  it("answers 404 JSON for unknown routes and 405 for a wrong method", async () => {
    const missing = await core(base, "/public/nothing-here", "sbx_core_view");
    expect(missing.status).toBe(404);
    expect(((await missing.json()) as CoreErrorBody).error.code).toBe("E_NOT_FOUND");
    const wrong = await core(base, "/public/validations-persons", "sbx_core_view", { method: "DELETE" });
    expect(wrong.status).toBe(405);
    expect(wrong.headers.get("allow")).toContain("GET");
  });
});
