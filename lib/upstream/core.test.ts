import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { ZodError } from "zod";

import { setLogSink } from "@/lib/log";
import { CoreClient, type CreateVerificationInput } from "@/lib/upstream/core";
import { UpstreamForbiddenError } from "@/lib/upstream/errors";
import { FILTER_KEYS, VERIFICATION_FILTERS } from "@/lib/upstream/model/verification-query";
import { sendJson, startFakeServer, type FakeServer } from "@/test/fake-upstream";

/* The core client against a local fake core API: what it sends, what it refuses to send, what it reads. */

const API_KEY = "fake_core_api_key";
const verification = {
  public_id: "5f0c7e0e-8d7a-4c43-9d55-0b7c1f3e2a11",
  document: "***.456.789-**",
  status: "approved",
  steps: { ocr: { state: "approved", notices: [] } },
  identity_score: 900,
  risk_score: 10,
  decided_at: "2026-10-01T12:00:00Z",
  pep_origin: null,
  restrictive_lists: [],
};
const file = (id: string) => ({
  url: `http://files.test/files/${id}?expires=1&signature=ab`,
  expires_in: 300,
  file: { public_id: id, type: "image/png" },
});

let server: FakeServer;
let lines: string[];

beforeEach(async () => {
  lines = [];
  setLogSink((_level, line) => lines.push(line));
  server = await startFakeServer((req, res) => {
    if (req.path === "/public/validations-persons")
      return sendJson(res, 200, { data: [verification], pagination: { page: 1, per_page: 20, total: 1 } });
    if (req.path.endsWith("/files"))
      return sendJson(res, 200, { selfie: null, document_back: file("back"), document_front: file("front"), note: "not a file" });
    if (req.path === "/public/verifications") return sendJson(res, 201, { public_id: "new-id", status: "started" });
    if (req.path.startsWith("/public/validations-persons/")) return sendJson(res, 200, verification);
    sendJson(res, 404, {});
  });
});

afterEach(async () => {
  setLogSink(undefined);
  await server.close();
});

const client = () => new CoreClient({ baseUrl: server.url, apiKey: API_KEY, pageParam: "pagina", maxPerPage: 50, retryBaseDelayMs: 1 });

describe("listVerifications", () => {
  it("sends only the allowed parameters, status comma-joined, the page under its configured name", async () => {
    const filters = {
      status: ["approved", "review"],
      flow: "default",
      journey: "onboarding",
      from: "2026-09-01",
      to: "2026-10-01T00:00:00Z",
      per_page: 20,
      page: 2,
    };
    const list = await client().listVerifications(filters);
    expect(list.items[0]!.publicId).toBe(verification.public_id);
    expect(list.pagination).toEqual({ page: 1, perPage: 20, total: 1 });
    const request = server.requests[0]!;
    expect(Object.fromEntries(request.query)).toEqual({
      status: "approved,review",
      flow: "default",
      journey: "onboarding",
      from: "2026-09-01",
      to: "2026-10-01T00:00:00Z",
      per_page: "20",
      pagina: "2",
    });
    expect(request.headers["x-api-key"]).toBe(API_KEY);
  });

  it("sends every defined filter under its wire name (the definition drives the query)", async () => {
    const sample = { statuses: ["review"], token: "default", date: "2026-10-01", count: 2 } as const;
    const filters = Object.fromEntries(FILTER_KEYS.map((key) => [key, sample[VERIFICATION_FILTERS[key].kind]]));
    await client().listVerifications(filters);
    const wireNames = FILTER_KEYS.map((key) => (key === "page" ? "pagina" : VERIFICATION_FILTERS[key].wire));
    expect([...server.requests[0]!.query.keys()].sort()).toEqual(wireNames.sort());
  });

  it("sends no query string at all without filters", async () => {
    await client().listVerifications();
    expect([...server.requests[0]!.query.keys()]).toEqual([]);
  });

  it("refuses bad filters before any request, naming them", async () => {
    const error = await client()
      .listVerifications({ per_page: 51, from: "yesterday", status: ["approved,review"] })
      .catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(ZodError);
    expect((error as ZodError).issues.map((issue) => issue.path.join("."))).toEqual(
      expect.arrayContaining(["per_page", "from", "status.0"]),
    );
    expect(server.requests).toHaveLength(0);
  });
});

it("refuses a key it does not know, naming it, before any request (never strips it silently)", async () => {
  // Not a filter: the upstream answers unknown parameters with 400, and a dropped filter would widen the list.
  const error = await client()
    .listVerifications({ status: ["approved"], sort: "name" } as never)
    .catch((caught: unknown) => caught);
  expect(error).toBeInstanceOf(ZodError);
  expect((error as ZodError).issues).toEqual([expect.objectContaining({ code: "unrecognized_keys", keys: ["sort"] })]);
  expect(server.requests).toHaveLength(0);
});

describe("public ids", () => {
  it.each(["../x", "a/b", "%2F", "a%2Fb", "..", "a?b=1", "a#b", "", "x".repeat(129)])("refuses %j before any request", async (publicId) => {
    const c = client();
    for (const call of [() => c.getVerification(publicId), () => c.getVerificationFiles(publicId)]) {
      const error = await call().catch((caught: unknown) => caught);
      expect(error).toBeInstanceOf(ZodError);
      expect((error as ZodError).issues[0]!.path).toEqual(["publicId"]);
    }
    expect(server.requests).toHaveLength(0);
  });

  it("puts a valid id in the path", async () => {
    await client().getVerification(verification.public_id);
    expect(server.requests[0]!.path).toBe(`/public/validations-persons/${verification.public_id}`);
  });
});

describe("getVerificationFiles", () => {
  it("returns every file key, known first, with an expiry computed at receipt, and no query string", async () => {
    const before = Date.now();
    const files = await client().getVerificationFiles("abc");
    expect(server.requests[0]!.path).toBe("/public/validations-persons/abc/files");
    expect([...server.requests[0]!.query.keys()]).toEqual([]);
    expect(files.map((entry) => entry.key)).toEqual(["selfie", "document_front", "document_back"]);
    expect(files[0]!.file).toBeNull();
    const back = files[2]!.file!;
    expect(back).toMatchObject({ publicId: "back", type: "image/png" });
    expect(back.expiresAt.getTime()).toBeGreaterThanOrEqual(before + 300_000);
    expect(back.expiresAt.getTime()).toBeLessThanOrEqual(Date.now() + 300_000);
    // Signed URLs stay out of the log.
    expect(lines.join("\n")).not.toContain("files.test");
  });
});

describe("createVerification", () => {
  it("sends only schema_version, ref_id and document, even when handed more", async () => {
    const input = {
      schemaVersion: "1",
      refId: "case-42",
      document: { type: "cpf", number: "52998224725", extra: "x" },
      integration_origin_public_id: "should-never-leave",
      integrationOriginPublicId: "should-never-leave",
    } as unknown as CreateVerificationInput;
    const created = await client().createVerification(input);
    expect(created).toMatchObject({ publicId: "new-id", status: "started" });
    const request = server.requests[0]!;
    expect(request.method).toBe("POST");
    expect(request.headers["content-type"]).toBe("application/json");
    expect(request.json()).toEqual({ schema_version: "1", ref_id: "case-42", document: { type: "cpf", number: "52998224725" } });
    expect(request.body.toString()).not.toContain("should-never-leave");
  });

  it("sends the flow as flow_public_id, as the examples do, and refuses one that is not an id before any call", async () => {
    const input = { schemaVersion: "1.0", refId: "case-43", document: { type: "cpf", number: "52998224725" } };
    await client().createVerification({ ...input, flowPublicId: "flow_01HZX-kyc" });
    expect(server.requests[0]!.json()).toEqual({
      schema_version: "1.0",
      ref_id: "case-43",
      document: { type: "cpf", number: "52998224725" },
      flow_public_id: "flow_01HZX-kyc",
    });
    await expect(client().createVerification({ ...input, flowPublicId: "../x" })).rejects.toBeInstanceOf(ZodError);
    expect(server.requests).toHaveLength(1);
  });

  it("reads the documentation's sdkUrl as the entry's address, never into the domain object", async () => {
    const documented = await startFakeServer((_req, res) =>
      sendJson(res, 201, {
        verification: { public_id: "new-2", status: "not_opened", expires_at: "2026-12-01T12:00:00Z" },
        sdkUrl: "https://verify.example.test/s/abc",
      }),
    );
    try {
      const answer = await new CoreClient({ baseUrl: documented.url, apiKey: API_KEY }).createVerificationWithEntry({
        schemaVersion: "1.0",
        refId: "case-44",
        document: { type: "cpf", number: "52998224725" },
      });
      expect(answer.entryUrl).toBe("https://verify.example.test/s/abc");
      expect(answer.created).toMatchObject({ publicId: "new-2", status: "not_opened", expiresAt: "2026-12-01T12:00:00Z", extra: {} });
      expect(JSON.stringify(answer.created)).not.toContain("verify.example.test");
    } finally {
      await documented.close();
    }
  });
});

describe("getVerification", () => {
  it("reads expires_at, the review sub-state and a flow_public_id into their fields, not into `extra`", async () => {
    const sent = {
      ...verification,
      status: "review",
      expires_at: "2026-10-02T12:00:00Z",
      review_state: "assigned",
      flow_public_id: "flow_9",
    };
    const fake = await startFakeServer((_req, res) => sendJson(res, 200, sent));
    try {
      const read = await new CoreClient({ baseUrl: fake.url, apiKey: API_KEY }).getVerification(sent.public_id);
      expect(read).toMatchObject({ expiresAt: "2026-10-02T12:00:00Z", reviewState: "assigned", flowPublicId: "flow_9", extra: {} });
    } finally {
      await fake.close();
    }
  });
});

describe("403", () => {
  it("reads a bare 403 on a read route as the IP allow-list", async () => {
    await server.close();
    server = await startFakeServer((_req, res) => {
      res.writeHead(403, { "content-type": "text/html" });
      res.end("<h1>403 Forbidden</h1>");
    });
    const error = await client()
      .listVerifications()
      .catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(UpstreamForbiddenError);
    expect((error as UpstreamForbiddenError).reason).toBe("ip_not_allowed");
    expect(server.requests).toHaveLength(1); // a 403 is not retried
  });
});
