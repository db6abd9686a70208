import { describe, expect, it } from "vitest";

import { PUT as availability, GET as availabilityGet } from "@/app/api/account/availability/route";
import { DEFAULT_QUEUE } from "@/lib/cases/routing-rules";
import type { BulkResult, RoutingConfig } from "@/lib/cases/types";
import { withPartnersHarness } from "@/test/partners-ops";

import { POST as bulk } from "./bulk/route";
import { GET as getRouting, PUT as putRouting } from "./routing/route";

/*
 * The routing, bulk and availability routes as Next calls them, with real session cookies: the PUT names each
 * bad field before writing anything, an analyst may not read or change routing nor bulk-assign, and bulk
 * answers a result per case.
 */

const h = withPartnersHarness({}, { clear: "nothing" });
const BASE = "http://localhost:3000/api";
const NO_PARAMS = { params: Promise.resolve({}) };

async function call<T = Record<string, unknown>>(response: Response | Promise<Response>) {
  const answered = await response;
  return { status: answered.status, body: (await answered.json()) as T & { error?: { code: string; fields?: string[] } } };
}
const send = (method: string, path: string, cookie: string, body?: unknown) => h.request(`${BASE}${path}`, { method, cookie, body });

describe("routing, bulk and availability routes", () => {
  it("GET and PUT /api/cases/routing: replaced whole, bad fields named, analysts refused", async () => {
    const read = await call<RoutingConfig>(getRouting(send("GET", "/cases/routing", h.adminCookie), NO_PARAMS));
    expect(read.status).toBe(200);
    expect(read.body.autoAssign).toBe(false);
    expect(read.body.queues.map((queue) => queue.id)).toContain(DEFAULT_QUEUE);
    const queueId = crypto.randomUUID();
    const config = {
      autoAssign: false,
      capacity: 3,
      queues: [
        { id: DEFAULT_QUEUE, name: "General", members: [] },
        { id: queueId, name: "PEP", members: [] },
      ],
      rules: [{ queueId, conditions: { flags: ["pep"] } }],
    };
    const saved = await call<RoutingConfig>(putRouting(send("PUT", "/cases/routing", h.adminCookie, config), NO_PARAMS));
    expect(saved.status).toBe(200);
    expect(saved.body.rules).toEqual([expect.objectContaining({ queueId, conditions: { flags: ["pep"] } })]);
    const bad = await call(
      putRouting(
        send("PUT", "/cases/routing", h.adminCookie, { ...config, capacity: 0, rules: [{ queueId: crypto.randomUUID(), conditions: {} }] }),
        NO_PARAMS,
      ),
    );
    expect(bad.status).toBe(400);
    expect(bad.body.error?.fields).toEqual(["capacity", "rules.0.queueId"]);
    const orphan = await call(
      putRouting(
        send("PUT", "/cases/routing", h.adminCookie, { ...config, rules: [{ queueId: crypto.randomUUID(), conditions: {} }] }),
        NO_PARAMS,
      ),
    );
    expect(orphan.body.error?.fields).toEqual(["rules.0.queueId"]);
    const noDefault = await call(
      putRouting(send("PUT", "/cases/routing", h.adminCookie, { ...config, queues: [config.queues[1]] }), NO_PARAMS),
    );
    expect([noDefault.status, noDefault.body.error?.fields]).toEqual([400, ["queues"]]);
    expect((await getRouting(send("GET", "/cases/routing", h.analystCookie), NO_PARAMS)).status).toBe(403);
  });

  it("POST /api/cases/bulk answers a result per case; assign needs cases.assign", async () => {
    const refused = await call(
      bulk(
        send("POST", "/cases/bulk", h.analystCookie, { action: "assign", publicIds: ["ver-x"], assignee: crypto.randomUUID() }),
        NO_PARAMS,
      ),
    );
    expect(refused.status).toBe(403);
    const missing = await call(bulk(send("POST", "/cases/bulk", h.adminCookie, { action: "move", publicIds: ["ver-x"] }), NO_PARAMS));
    expect([missing.status, missing.body.error?.fields]).toEqual([400, ["queue"]]);
    const unknown = await call<BulkResult>(
      bulk(send("POST", "/cases/bulk", h.analystCookie, { action: "unassign", publicIds: ["ver-none-1", "ver-none-2"] }), NO_PARAMS),
    );
    expect(unknown.status).toBe(200);
    expect(unknown.body.results.map((result) => [result.publicId, result.ok, result.code])).toEqual([
      ["ver-none-1", false, "not_found"],
      ["ver-none-2", false, "not_found"],
    ]);
  });

  it("PUT /api/account/availability sets and reads the member's away flag", async () => {
    const away = await call(availability(send("PUT", "/account/availability", h.analystCookie, { away: true }), NO_PARAMS));
    expect(away).toEqual({ status: 200, body: { away: true, released: 0, reassigned: 0, alertsReleased: 0, alertsReassigned: 0 } });
    expect((await call(availabilityGet(send("GET", "/account/availability", h.analystCookie), NO_PARAMS))).body).toEqual({ away: true });
    const bad = await call(availability(send("PUT", "/account/availability", h.analystCookie, { away: "yes" }), NO_PARAMS));
    expect([bad.status, bad.body.error?.fields]).toEqual([400, ["away"]]);
  });
});
