import { describe, expect, it } from "vitest";

import { GET as LIST_VERIFICATIONS } from "@/app/api/verifications/route";
import type { ConnectionListResponse, ConnectionResponse } from "@/lib/connections/types";
import { json, withPartnersHarness } from "@/test/partners-ops";

import { PATCH } from "./[id]/route";
import { POST as TEST } from "./[id]/test/route";
import { GET, POST } from "./route";

/*
 * Connections through their routes, against a real sandbox and its three datasets' keys (sandbox/api-keys.ts): the
 * seeded ones, adding a key (tested first, refused when the service refuses it), what a key can do read off the
 * service's answers, rotation, retirement, and the key's value nowhere after it is saved: not in an answer, the
 * database, the trail or a log line.
 */

const h = withPartnersHarness();
const BASE = "http://localhost:3000/api/connections";

const list = async (cookie = h.adminCookie, query = "") =>
  json<ConnectionListResponse>(await GET(h.request(`${BASE}${query}`, { cookie })));
const add = (body: Record<string, unknown>, cookie = h.adminCookie) => POST(h.request(BASE, { method: "POST", cookie, body }));
const change = (id: string, body: Record<string, unknown>) =>
  PATCH(h.request(`${BASE}/${id}`, { method: "PATCH", cookie: h.adminCookie, body }), { params: Promise.resolve({ id }) });

describe("the seeded connections", () => {
  it("are the sandbox's three datasets in embedded mode, the default one current, no key in the answer", async () => {
    const { connections } = await list(h.analystCookie);
    expect(connections.map((c) => [c.id, c.environment, c.current])).toEqual([
      ["primary", "sandbox", true],
      ["production", "production", false],
      ["other-integration", "sandbox", false],
    ]);
    expect(connections[0]!.keyHint).toBe("edia");
    expect(JSON.stringify(connections)).not.toContain("sbx_core");
  });

  it("marks the connection a request names as current, and answers 404 naming `connection` for an unknown one", async () => {
    const { connections } = await list(h.analystCookie, "?connection=production");
    expect(connections.find((c) => c.current)?.id).toBe("production");
    const unknown = await GET(h.request(`${BASE}?connection=nowhere`, { cookie: h.analystCookie }));
    expect(unknown.status).toBe(404);
    expect(await json(unknown)).toMatchObject({ error: { fields: ["connection"] } });
  });
});

describe("speaking with a connection's key", () => {
  it("reads each dataset under its own connection: sandbox and production never share a verification", async () => {
    const ids = async (connection: string) => {
      const response = await LIST_VERIFICATIONS(
        h.request(`http://localhost:3000/api/verifications?connection=${connection}`, { cookie: h.adminCookie }),
      );
      expect(response.status).toBe(200);
      return (await json<{ items: Array<{ publicId: string }> }>(response)).items.map((item) => item.publicId);
    };
    const [sandbox, production] = [await ids("primary"), await ids("production")];
    expect(sandbox.length).toBeGreaterThan(0);
    expect(production.length).toBeGreaterThan(0);
    expect(sandbox.filter((id) => production.includes(id))).toEqual([]);
  });
});

describe("adding a connection", () => {
  it("is for admins with a fresh second factor", async () => {
    const body = { name: "Nope", environment: "sandbox", coreApiKey: "sbx_core_view" };
    expect((await add(body, h.analystCookie)).status).toBe(403);
    expect(await h.sandbox.requests()).toEqual([]);
  });

  it("tests the key, keeps what it can do, and never shows or stores its value", async () => {
    const response = await add({ name: "Só leitura", environment: "sandbox", coreApiKey: "sbx_core_view" });
    expect(response.status).toBe(201);
    const { connection } = await json<ConnectionResponse>(response);
    expect(connection).toMatchObject({ id: "so-leitura", keyHint: "view", partners: false });
    // A masked document: no unmasked permission; the files call refused: no media permission.
    expect(connection.capabilities).toEqual({ read: true, media: false, unmasked: false });
    const everything = `${await h.allText()}\n${h.logLines.join("\n")}`;
    expect(everything).toContain("so-leitura");
    expect(everything).not.toContain('sbx_core_view"');
    expect(everything).not.toMatch(/sbx_core_view(?!_)/);
  });

  it("refuses a key the service refuses, naming coreApiKey, and keeps nothing", async () => {
    const response = await add({ name: "Errada", environment: "production", coreApiKey: "sbx_core_does_not_exist" });
    expect(response.status).toBe(400);
    expect(await json(response)).toMatchObject({ error: { fields: ["coreApiKey"] } });
    expect((await list()).connections.map((c) => c.name)).not.toContain("Errada");
  });

  it("refuses a bad body naming the field, before any upstream call", async () => {
    const response = await add({ name: "", environment: "staging", coreApiKey: "x" });
    expect(response.status).toBe(400);
    const { error } = await json<{ error: { fields: string[] } }>(response);
    expect(error.fields).toEqual(expect.arrayContaining(["name", "environment", "coreApiKey"]));
    expect(await h.sandbox.requests()).toEqual([]);
  });
});

describe("changing a connection", () => {
  it("rotates the key without a restart: the next request under it speaks with the new key", async () => {
    const created = await json<ConnectionResponse>(await add({ name: "Rodízio", environment: "sandbox", coreApiKey: "sbx_core_view" }));
    const id = created.connection.id;
    const rotated = await change(id, { coreApiKey: "sbx_core_unmasked" });
    expect(rotated.status).toBe(200);
    const { connection } = await json<ConnectionResponse>(rotated);
    expect(connection.keyHint).toBe("sked");
    expect(connection.capabilities).toEqual({ read: true, media: true, unmasked: true });
    // The stored key is the new one: a test made with it now finds the unmasked permission the old key lacked.
    const tested = await json<ConnectionResponse>(
      await TEST(h.request(`${BASE}/${id}/test`, { method: "POST", cookie: h.adminCookie }), { params: Promise.resolve({ id }) }),
    );
    expect(tested.connection.capabilities).toEqual({ read: true, media: true, unmasked: true });
  });

  it("retires a connection: gone from members' lists, a 404 when named, kept for admins", async () => {
    const created = await json<ConnectionResponse>(await add({ name: "Antiga", environment: "sandbox", coreApiKey: "sbx_core_view" }));
    const id = created.connection.id;
    expect((await change(id, { retire: true })).status).toBe(200);
    expect((await list(h.analystCookie)).connections.map((c) => c.id)).not.toContain(id);
    expect((await list()).connections.find((c) => c.id === id)?.retiredAt).toBeTruthy();
    expect((await GET(h.request(`${BASE}?connection=${id}`, { cookie: h.analystCookie }))).status).toBe(404);
    expect((await change(id, { name: "De volta" })).status).toBe(404);
  });

  it("writes each change on the trail with the connection's id and no secret", async () => {
    const text = await h.allText();
    const trail = text.split("\n").filter((line) => line.startsWith("audit_events:") && line.includes("connection."));
    expect(trail.some((line) => line.includes("connection.create"))).toBe(true);
    expect(trail.join("\n")).not.toMatch(/sbx_core_/);
  });
});
