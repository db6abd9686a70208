import { describe, expect, it } from "vitest";

import { GET as LIST_CONNECTIONS } from "@/app/api/connections/route";
import { GET as READ_ACCESS, PUT as SET_ACCESS } from "@/app/api/staff/[id]/connections/route";
import { GET as MEDIA } from "@/app/api/verifications/[publicId]/media/route";
import { GET as LIST } from "@/app/api/verifications/route";
import type { ConnectionListResponse } from "@/lib/connections/types";
import type { VerificationListResponse } from "@/lib/verifications/types";
import { createTestStaff, sessionCookieFor } from "@/test/auth";
import { json, withPartnersHarness } from "@/test/partners-ops";

/*
 * Permissions per connection (issue 33, item 4), against a real sandbox: `primary` speaks with the key that returns
 * everything unmasked, `production` with the sandbox's production key (which does too). A member given the sandbox only
 * never sees production; a member whose role holds personal_data.unmasked and media.read keeps them on the sandbox
 * while production withholds them, on every route (the route kit narrows the member, not the route).
 */

const h = withPartnersHarness({ CORE_API_KEY: "sbx_core_unmasked" });
const ORIGIN = "http://localhost:3000";
const noParams = { params: Promise.resolve({}) as Promise<never> };

async function member(): Promise<{ id: string; cookie: string }> {
  const staff = await createTestStaff(h.db.db, { role: "admin" });
  return { id: staff.id, cookie: await sessionCookieFor(h.db.db, staff) };
}

const setAccess = (id: string, connections: unknown, cookie = h.adminCookie) =>
  SET_ACCESS(h.request(`${ORIGIN}/api/staff/${id}/connections`, { method: "PUT", cookie, body: { connections } }), {
    params: Promise.resolve({ id }),
  });

const listUnder = (cookie: string, connection?: string) =>
  LIST(h.request(`${ORIGIN}/api/verifications?per_page=5${connection ? `&connection=${connection}` : ""}`, { cookie }), noParams);

describe("a member given the sandbox only", () => {
  it("sees no other connection: not listed, and a 404 naming `connection` when named", async () => {
    const { id, cookie } = await member();
    expect((await setAccess(id, [{ connectionId: "primary", withheld: [] }])).status).toBe(200);
    const { connections } = await json<ConnectionListResponse>(
      await LIST_CONNECTIONS(h.request(`${ORIGIN}/api/connections`, { cookie }), noParams),
    );
    // An admin role manages every connection: the page of connections lists them all; what they may *use* is narrower.
    expect(connections.map((c) => c.id)).toContain("production");
    const refused = await listUnder(cookie, "production");
    expect(refused.status).toBe(404);
    expect(await json(refused)).toMatchObject({ error: { fields: ["connection"] } });
    expect((await listUnder(cookie)).status).toBe(200);
    expect((await listUnder(cookie, "primary")).status).toBe(200);
  });

  it("a member without integrations.manage is listed only the connections given", async () => {
    const analyst = await createTestStaff(h.db.db, { role: "analyst" });
    expect((await setAccess(analyst.id, [{ connectionId: "primary", withheld: [] }])).status).toBe(200);
    const cookie = await sessionCookieFor(h.db.db, analyst);
    const { connections } = await json<ConnectionListResponse>(
      await LIST_CONNECTIONS(h.request(`${ORIGIN}/api/connections`, { cookie }), noParams),
    );
    expect(connections.map((c) => c.id)).toEqual(["primary"]);
  });

  it("a member given production only works under it by default", async () => {
    const analyst = await createTestStaff(h.db.db, { role: "analyst" });
    expect((await setAccess(analyst.id, [{ connectionId: "production", withheld: [] }])).status).toBe(200);
    const cookie = await sessionCookieFor(h.db.db, analyst);
    const { connections } = await json<ConnectionListResponse>(
      await LIST_CONNECTIONS(h.request(`${ORIGIN}/api/connections`, { cookie }), noParams),
    );
    expect(connections.map((c) => [c.id, c.current])).toEqual([["production", true]]);
    expect((await listUnder(cookie, "primary")).status).toBe(404);
  });
});

describe("personal data and images withheld on production, granted on the sandbox", () => {
  it("unmasked on the sandbox, masked by the dashboard on production; images on the sandbox only", async () => {
    const { id, cookie } = await member();
    const withheld = ["personal_data.unmasked", "media.read"];
    expect(
      (
        await setAccess(id, [
          { connectionId: "primary", withheld: [] },
          { connectionId: "production", withheld },
        ])
      ).status,
    ).toBe(200);

    const sandbox = await json<VerificationListResponse>(await listUnder(cookie, "primary"));
    expect(sandbox.items[0]?.documentMasked).toBe(false);
    const production = await json<VerificationListResponse>(await listUnder(cookie, "production"));
    expect(production.items.length).toBeGreaterThan(0);
    expect(production.items.every((item) => item.documentMasked && item.maskedBy === "dashboard")).toBe(true);

    const media = (publicId: string, connection: string) =>
      MEDIA(h.request(`${ORIGIN}/api/verifications/${publicId}/media?connection=${connection}`, { cookie }), {
        params: Promise.resolve({ publicId }),
      });
    expect((await media(sandbox.items[0]!.publicId, "primary")).status).toBe(200);
    expect((await media(production.items[0]!.publicId, "production")).status).toBe(403);
  });
});

describe("setting a member's connections", () => {
  it("reads back what was set; null gives every connection again", async () => {
    const { id, cookie } = await member();
    await setAccess(id, [{ connectionId: "production", withheld: ["media.read"] }]);
    const read = async () =>
      json(
        await READ_ACCESS(h.request(`${ORIGIN}/api/staff/${id}/connections`, { cookie: h.adminCookie }), {
          params: Promise.resolve({ id }),
        }),
      );
    expect(await read()).toEqual({ connections: [{ connectionId: "production", withheld: ["media.read"] }] });
    expect((await setAccess(id, null)).status).toBe(200);
    expect(await read()).toEqual({ connections: null });
    expect((await listUnder(cookie, "primary")).status).toBe(200);
  });

  it("refuses, naming the field: no connection, one twice, an unknown permission, a connection that is not live", async () => {
    const { id } = await member();
    for (const connections of [
      [],
      [{ connectionId: "primary" }, { connectionId: "primary" }],
      [{ connectionId: "primary", withheld: ["everything"] }],
    ]) {
      const refused = await setAccess(id, connections);
      expect(refused.status, JSON.stringify(connections)).toBe(400);
      expect(JSON.stringify(await json(refused))).toContain("connections");
    }
    const unknown = await setAccess(id, [{ connectionId: "nowhere", withheld: [] }]);
    expect(unknown.status).toBe(400);
    expect(await json(unknown)).toMatchObject({ error: { fields: ["connections"] } });
  });

  it("refuses one's own, and writes each change on the trail", async () => {
    const own = await setAccess(h.adminId, [{ connectionId: "primary", withheld: [] }]);
    expect(own.status).toBe(403);
    const { id } = await member();
    await setAccess(id, [{ connectionId: "primary", withheld: ["media.read"] }]);
    const trail = (await h.allText()).split("\n").filter((line) => line.startsWith("audit_events:") && line.includes("staff.connections"));
    expect(trail.some((line) => line.includes(id) && line.includes("withholds media.read"))).toBe(true);
  });
});
