import http from "node:http";
import type { AddressInfo } from "node:net";
import { Readable } from "node:stream";

import { NextRequest } from "next/server";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { z } from "zod";

import { AppError } from "@/lib/shared/errors";
import { apiRequest, createTestStaff, sessionCookieFor } from "@/test/auth";
import { setProcessDatabase, stubTestEnvironment, testDatabases, type TestDatabase } from "@/test/db";

import { csvFile, fileStamp, json, route } from "./route";

/*
 * The route kit's checks, in a real request pipeline (NextRequest, a real signed session, PGlite):
 * same-origin for every non-GET, session and permission, JSON only, the body cap enforced while reading,
 * zod errors naming the field, no-store everywhere, one error mapper.
 */

const URL_ = "http://localhost:3000/api/thing/abc";
let handle: TestDatabase;
let analyst: string;
let admin: string;

beforeAll(async () => {
  stubTestEnvironment({ NEXTAUTH_URL: "https://kyc.example.com" });
  handle = await testDatabases()[0]!.open();
  setProcessDatabase(handle);
  analyst = await sessionCookieFor(handle.db, await createTestStaff(handle.db, { role: "analyst" }));
  admin = await sessionCookieFor(handle.db, await createTestStaff(handle.db, { role: "admin" }));
});
afterAll(async () => {
  setProcessDatabase(undefined);
  await handle?.dispose();
  vi.unstubAllEnvs();
});

const echo = route({ permission: "verifications.read", body: z.object({ name: z.string().min(1) }) }, async ({ body, user, context }) =>
  json({ name: body.name, role: user.role, actor: context.actor?.email === user.email }, { status: 201 }),
);
const adminOnly = route({ permission: "staff.manage" }, async () => json({ ok: true }));
const withParams = route({ permission: "verifications.read", params: z.object({ id: z.string().regex(/^[a-z]+$/) }) }, async ({ params }) =>
  json(params),
);
const publicRaw = route({ permission: "public", rawBody: true, crossSite: "allow" }, async ({ raw, user }) =>
  json({ length: raw.length, user }),
);
const plainResponse = route({ permission: "verifications.read" }, async () => new Response("ok"));

type ErrorBody = { error: { code: string; fields?: string[] } };
const errorOf = async (response: Response) => ((await response.json()) as ErrorBody).error;

describe("same-origin check", () => {
  it("refuses a foreign Origin, a missing Origin and 'null', with its own code, before the session is looked at", async () => {
    for (const headers of [{ origin: "http://localhost:3001" }, { origin: "null" }, { origin: "https://evil.example" }]) {
      const response = await echo(apiRequest(URL_, { method: "POST", cookie: analyst, body: { name: "a" }, headers }));
      expect(response.status).toBe(403);
      expect(await errorOf(response)).toMatchObject({ code: "cross_origin" });
    }
    const bare = new NextRequest(URL_, { method: "POST", headers: { cookie: analyst, "content-type": "application/json" }, body: "{}" });
    expect(await errorOf(await echo(bare))).toMatchObject({ code: "cross_origin" });
    // Signed out too: the origin is refused first.
    expect((await echo(apiRequest(URL_, { method: "POST", body: {}, headers: { origin: "https://evil.example" } }))).status).toBe(403);
  });

  it("accepts the request's own origin, the configured public origin, and a missing Origin marked same-origin", async () => {
    expect((await echo(apiRequest(URL_, { method: "POST", cookie: analyst, body: { name: "a" } }))).status).toBe(201);
    const viaPublic = apiRequest(URL_, {
      method: "POST",
      cookie: analyst,
      body: { name: "a" },
      headers: { origin: "https://kyc.example.com" },
    });
    expect((await echo(viaPublic)).status).toBe(201);
    const marked = new NextRequest(URL_, {
      method: "POST",
      headers: { cookie: analyst, "content-type": "application/json", "sec-fetch-site": "same-origin" },
      body: JSON.stringify({ name: "a" }),
    });
    expect((await echo(marked)).status).toBe(201);
  });

  it("does not apply to GET, and is skipped only where the route says crossSite: allow", async () => {
    expect((await adminOnly(apiRequest(URL_, { cookie: admin, headers: { origin: "https://evil.example" } }))).status).toBe(200);
    const webhook = apiRequest(URL_, { method: "POST", body: { a: 1 }, headers: { origin: "https://service.example" } });
    expect(await (await publicRaw(webhook)).json()).toEqual({ length: 7, user: null });
  });
});

describe("GET routes with side effects", () => {
  const download = route({ permission: "verifications.read", sideEffects: true }, async () => json({ ok: true }));
  const get = (headers: Record<string, string>) => new NextRequest(URL_, { headers: { cookie: analyst, ...headers } });

  it("refuses what a page of another site makes the browser send: a link, an image, a frame (the cookie comes along under SameSite=Lax)", async () => {
    const refused: Record<string, string>[] = [
      { "sec-fetch-site": "cross-site" },
      { "sec-fetch-site": "same-site" },
      { "sec-fetch-site": "cross-site", "sec-fetch-dest": "image" },
      { origin: "https://evil.example" },
      { origin: "null" },
      {},
    ];
    for (const headers of refused) {
      const response = await download(get(headers));
      expect(response.status, JSON.stringify(headers)).toBe(403);
      expect(await errorOf(response)).toMatchObject({ code: "cross_origin" });
    }
  });

  it("accepts the dashboard's own fetch, image or download link, an address the member opened, and this site's Origin", async () => {
    const accepted: Record<string, string>[] = [
      { "sec-fetch-site": "same-origin" },
      { "sec-fetch-site": "none" },
      { origin: "http://localhost:3000" },
      { origin: "https://kyc.example.com" },
    ];
    for (const headers of accepted) {
      expect((await download(get(headers))).status, JSON.stringify(headers)).toBe(200);
    }
  });

  it("leaves plain reads alone, and never takes Sec-Fetch-Site: none for a write", async () => {
    expect((await adminOnly(new NextRequest(URL_, { headers: { cookie: admin, "sec-fetch-site": "cross-site" } }))).status).toBe(200);
    const typed = new NextRequest(URL_, {
      method: "POST",
      headers: { cookie: analyst, "content-type": "application/json", "sec-fetch-site": "none" },
      body: JSON.stringify({ name: "a" }),
    });
    expect((await echo(typed)).status).toBe(403);
  });
});

describe("session and permission", () => {
  it("answers 401 signed out and 403 without the permission, as JSON", async () => {
    const signedOut = await adminOnly(apiRequest(URL_));
    expect(signedOut.status).toBe(401);
    expect(signedOut.headers.get("content-type")).toContain("application/json");
    expect((await adminOnly(apiRequest(URL_, { cookie: analyst }))).status).toBe(403);
    expect((await adminOnly(apiRequest(URL_, { cookie: admin }))).status).toBe(200);
  });

  it("hands the handler the user and the request context", async () => {
    const response = await echo(apiRequest(URL_, { method: "POST", cookie: admin, body: { name: "x" } }));
    expect(await response.json()).toEqual({ name: "x", role: "admin", actor: true });
  });
});

describe("the body", () => {
  it("refuses a body that is not application/json with 415 (a text/plain form post)", async () => {
    const request = apiRequest(URL_, { method: "POST", cookie: analyst, headers: { "content-type": "text/plain" } });
    const form = new NextRequest(request, { body: '{"name":"a"}' });
    const response = await echo(form);
    expect(response.status).toBe(415);
    expect(await errorOf(response)).toMatchObject({ code: "unsupported_media_type" });
  });

  it("takes an empty stream as no body (a browser's bodiless DELETE), and still refuses a text body to a route without one", async () => {
    const bodiless = route({ permission: "staff.manage" }, async () => json({ ok: true }));
    const empty = new NextRequest(URL_, {
      method: "DELETE",
      headers: { cookie: admin, origin: "http://localhost:3000" },
      body: new ReadableStream<Uint8Array>({ start: (controller) => controller.close() }),
      duplex: "half",
    } as ConstructorParameters<typeof NextRequest>[1]);
    expect((await bodiless(empty)).status).toBe(200);
    const plain = new NextRequest(URL_, {
      method: "DELETE",
      headers: { cookie: admin, origin: "http://localhost:3000", "content-type": "text/plain" },
      body: "x",
    });
    expect((await bodiless(plain)).status).toBe(415);
    // A route whose body is required: a missing one is refused, never taken as an empty object.
    const missing = new NextRequest(URL_, {
      method: "POST",
      headers: { cookie: analyst, origin: "http://localhost:3000", "content-type": "application/json" },
    });
    expect((await echo(missing)).status).toBe(400);
  });

  it("refuses a declared Content-Length over the cap at once, without reading the body", async () => {
    let pulled = 0;
    const body = new ReadableStream<Uint8Array>({
      pull(controller) {
        pulled += 1;
        controller.enqueue(new Uint8Array(1024));
      },
    });
    const request = new NextRequest(URL_, {
      method: "POST",
      headers: {
        cookie: analyst,
        origin: "http://localhost:3000",
        "content-type": "application/json",
        "content-length": String(50 * 1024 * 1024),
      },
      body,
      duplex: "half",
    } as ConstructorParameters<typeof NextRequest>[1]);
    const response = await echo(request);
    expect(response.status).toBe(413);
    expect(pulled).toBeLessThanOrEqual(1);
  });

  it("stops reading an undeclared body as soon as it passes the cap", async () => {
    let sent = 0;
    const body = new ReadableStream<Uint8Array>({
      pull(controller) {
        sent += 4096;
        controller.enqueue(new TextEncoder().encode(" ".repeat(4096)));
        // An endless body: only the cap can end this request.
      },
    });
    const request = new NextRequest(URL_, {
      method: "POST",
      headers: { cookie: analyst, origin: "http://localhost:3000", "content-type": "application/json" },
      body,
      duplex: "half",
    } as ConstructorParameters<typeof NextRequest>[1]);
    const response = await echo(request);
    expect(response.status).toBe(413);
    expect(await errorOf(response)).toMatchObject({ code: "payload_too_large" });
    expect(sent).toBeLessThan(64 * 1024);
  });

  it.each([
    ["undeclared (chunked)", false],
    ["declared in Content-Length", true],
  ])("refuses a 50 MB body sent over HTTP, %s, with 413 while the server's memory grows less than 50 MB", async (_name, declared) => {
    const FIFTY_MB = 50 * 1024 * 1024;
    let consumed = 0;
    // A real HTTP server in front of the kit: the body arrives from a socket, as in production.
    const server = http.createServer(async (incoming, outgoing) => {
      incoming.on("data", (chunk: Buffer) => (consumed += chunk.byteLength));
      const request = new NextRequest(URL_, {
        method: "POST",
        headers: {
          cookie: analyst,
          origin: "http://localhost:3000",
          "content-type": "application/json",
          ...(incoming.headers["content-length"] ? { "content-length": incoming.headers["content-length"] } : {}),
        },
        body: Readable.toWeb(incoming) as ReadableStream<Uint8Array>,
        duplex: "half",
      } as ConstructorParameters<typeof NextRequest>[1]);
      const response = await echo(request);
      outgoing.writeHead(response.status, { "content-type": "application/json", connection: "close" });
      outgoing.end(await response.text(), () => incoming.destroy());
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    const { port } = server.address() as AddressInfo;
    const before = process.memoryUsage().rss;
    let peak = before;
    try {
      const status = await new Promise<number>((resolve, reject) => {
        const chunk = Buffer.alloc(1024 * 1024, 0x20);
        const client = http.request({
          host: "127.0.0.1",
          port,
          method: "POST",
          path: "/api/thing/abc",
          headers: declared ? { "content-length": String(FIFTY_MB) } : { "transfer-encoding": "chunked" },
        });
        let answered = false;
        client.on("response", (response) => {
          answered = true;
          response.resume();
          resolve(response.statusCode ?? 0);
        });
        // The server closing mid-upload is the expected end of the upload, not a failure.
        client.on("error", (error) => (answered ? undefined : reject(error)));
        let sent = 0;
        const write = () => {
          while (!answered && sent < FIFTY_MB) {
            sent += chunk.byteLength;
            peak = Math.max(peak, process.memoryUsage().rss);
            if (!client.write(chunk)) return void client.once("drain", write);
          }
          if (!answered) client.end();
        };
        write();
      });
      peak = Math.max(peak, process.memoryUsage().rss);
      expect(status).toBe(413);
      expect(peak - before).toBeLessThan(FIFTY_MB);
      // Only what the socket had already delivered was read: nowhere near the 50 MB.
      expect(consumed).toBeLessThan(FIFTY_MB / 4);
      console.info(
        `50 MB body (${declared ? "declared" : "chunked"}): rss +${((peak - before) / 1024 / 1024).toFixed(1)} MB, ${consumed} bytes read`,
      );
    } finally {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    }
  });

  it("answers 400 for a body that is not JSON and names the field the schema refuses", async () => {
    const broken = new NextRequest(apiRequest(URL_, { method: "POST", cookie: analyst, body: {} }), { body: "{name:" });
    expect(await errorOf(await echo(broken))).toMatchObject({ code: "bad_request" });
    const response = await echo(apiRequest(URL_, { method: "POST", cookie: analyst, body: { name: "" } }));
    expect(response.status).toBe(400);
    expect(await errorOf(response)).toMatchObject({ code: "validation", fields: ["name"] });
  });
});

describe("params, errors and caching", () => {
  it("parses the dynamic segments with their schema", async () => {
    const ok = await withParams(apiRequest(URL_, { cookie: analyst }), { params: Promise.resolve({ id: "abc" }) });
    expect(await ok.json()).toEqual({ id: "abc" });
    const bad = await withParams(apiRequest(URL_, { cookie: analyst }), { params: Promise.resolve({ id: "../x" }) });
    expect(await errorOf(bad)).toMatchObject({ code: "validation", fields: ["id"] });
  });

  it("maps what the handler throws once, and marks every answer no-store", async () => {
    const thrower = route({ permission: "verifications.read" }, async () => {
      throw new AppError("conflict", "Taken.");
    });
    const response = await thrower(apiRequest(URL_, { cookie: analyst }));
    expect(response.status).toBe(409);
    expect(response.headers.get("cache-control")).toBe("no-store");
    expect((await plainResponse(apiRequest(URL_, { cookie: analyst }))).headers.get("cache-control")).toBe("no-store");
    expect((await adminOnly(apiRequest(URL_, { cookie: admin }))).headers.get("cache-control")).toBe("no-store");
  });
});

describe("the query", () => {
  const listed = route(
    {
      permission: "verifications.read",
      query: z.object({ format: z.enum(["json", "csv"]).optional(), status: z.array(z.string()).or(z.string()).optional() }),
      repeatable: ["status"],
    },
    async ({ query }) => json(query),
  );
  const get = (search: string) => listed(apiRequest(`${URL_}${search}`, { cookie: analyst }));

  it("refuses a key given more than once, naming it, whichever value comes first or is empty", async () => {
    for (const search of ["?format=&format=csv", "?format=csv&format=", "?format=json&format=csv", "?format=csv&format=csv&status=a"]) {
      const response = await get(search);
      expect(response.status, search).toBe(400);
      expect(await errorOf(response), search).toMatchObject({ code: "validation", fields: ["format"] });
    }
  });

  it("hands a key the route lists as repeatable as an array, and a single value as its text", async () => {
    expect(await (await get("?status=a&status=b&format=csv")).json()).toEqual({ status: ["a", "b"], format: "csv" });
    expect(await (await get("?status=a")).json()).toEqual({ status: "a" });
  });
});

describe("csvFile", () => {
  it("is a download that no cache keeps and no browser sniffs, with what the export announces; its stamp is UTC", async () => {
    const body = new Response("a,b\r\n1,2\r\n").body!;
    const response = csvFile(body, `list-${fileStamp(new Date("2025-03-04T05:06:07.890Z"))}.csv`, { "X-Total-Count": "1" });
    expect(Object.fromEntries(response.headers)).toEqual({
      "content-type": "text/csv; charset=utf-8",
      "content-disposition": 'attachment; filename="list-20250304-050607.csv"',
      "cache-control": "no-store",
      "x-content-type-options": "nosniff",
      "x-total-count": "1",
    });
    expect(await response.text()).toBe("a,b\r\n1,2\r\n");
  });
});
