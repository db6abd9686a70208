import { and, eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";

import { auditEvents } from "@/lib/audit-trail/server/tables";
import type { TakeSettings } from "@/lib/cases/take-mode";
import { withPartnersHarness } from "@/test/partners-ops";

import { GET, PUT } from "./settings/route";

/*
 * The team's take mode (issue 32) as Next calls its route, with real session cookies: read and changed by a holder
 * of cases.assign, refused to an analyst, a wrong value named before anything is written, each change audited with
 * the value it replaced.
 */

const h = withPartnersHarness({}, { clear: "nothing" });
const BASE = "http://localhost:3000/api";
const NO_PARAMS = { params: Promise.resolve({}) };

async function call(response: Response | Promise<Response>) {
  const answered = await response;
  return { status: answered.status, body: (await answered.json()) as TakeSettings & { error?: { code: string; fields?: string[] } } };
}
const send = (method: string, cookie: string, body?: unknown) => h.request(`${BASE}/cases/settings`, { method, cookie, body });

describe("GET and PUT /api/cases/settings", () => {
  it("reads on_decision by default, changes it for everyone, and audits the change with the old value", async () => {
    expect(await call(GET(send("GET", h.adminCookie), NO_PARAMS))).toEqual({ status: 200, body: { takeMode: "on_decision" } });
    expect(await call(PUT(send("PUT", h.adminCookie, { takeMode: "never" }), NO_PARAMS))).toEqual({
      status: 200,
      body: { takeMode: "never" },
    });
    expect((await call(GET(send("GET", h.adminCookie), NO_PARAMS))).body).toEqual({ takeMode: "never" });
    const [event] = await h.db.db
      .select()
      .from(auditEvents)
      .where(and(eq(auditEvents.action, "case.settings_change"), eq(auditEvents.actorId, h.adminId)));
    expect(event?.outcome).toBe("success");
    expect(event?.details).toMatchObject({ takeMode: "never", was: "on_decision" });
    await call(PUT(send("PUT", h.adminCookie, { takeMode: "on_decision" }), NO_PARAMS));
  });

  it("names takeMode when its value is not a take mode, and writes nothing", async () => {
    for (const body of [{ takeMode: "always" }, {}, { takeMode: 1 }]) {
      const bad = await call(PUT(send("PUT", h.adminCookie, body), NO_PARAMS));
      expect([bad.status, bad.body.error?.fields]).toEqual([400, ["takeMode"]]);
    }
    expect((await call(GET(send("GET", h.adminCookie), NO_PARAMS))).body).toEqual({ takeMode: "on_decision" });
  });

  it("refuses an analyst both reading and changing it", async () => {
    expect((await call(GET(send("GET", h.analystCookie), NO_PARAMS))).status).toBe(403);
    expect((await call(PUT(send("PUT", h.analystCookie, { takeMode: "on_open" }), NO_PARAMS))).status).toBe(403);
    expect((await call(GET(send("GET", h.adminCookie), NO_PARAMS))).body).toEqual({ takeMode: "on_decision" });
  });
});
