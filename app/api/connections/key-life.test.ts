import { and, eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";

import { GET as LIST_VERIFICATIONS } from "@/app/api/verifications/route";
import { auditEvents } from "@/lib/audit-trail/server/tables";
import { setGrants } from "@/lib/connections/server/access";
import { connections } from "@/lib/connections/server/tables";
import type { ConnectionResponse } from "@/lib/connections/types";
import { warnExpiringKeys } from "@/lib/integrations/server/key-expiry";
import { notifications } from "@/lib/notifications/server/tables";
import { createTestStaff } from "@/test/auth";
import { json, withPartnersHarness } from "@/test/partners-ops";

import { PATCH } from "./[id]/route";
import { POST } from "./route";

/*
 * A connection's key and its life (issue 35, item 4), against a real sandbox that knows two keys in the provider's
 * documented format (sandbox/api-keys.ts): a key cut short is refused before the service is asked; a provider key is
 * shown by its public part with the default validity; a rotation names the grace the provider gives the old key and
 * loses no request on any instance; the integration admins are warned 30 and 7 days before the key expires, once each.
 */

const h = withPartnersHarness();
const BASE = "http://localhost:3000/api/connections";
const OLD_KEY = "lz_sbxmain1_Hq7pW2xLr9TfK4cVn8Zs";
const NEW_KEY = "lz_sbxmain2_Jd3mY6bQe1RuG5hXk0Pa";
const DAY = 86_400_000;

const add = (body: Record<string, unknown>) => POST(h.request(BASE, { method: "POST", cookie: h.adminCookie, body }));
const change = (id: string, body: Record<string, unknown>) =>
  PATCH(h.request(`${BASE}/${id}`, { method: "PATCH", cookie: h.adminCookie, body }), { params: Promise.resolve({ id }) });

async function added(name: string): Promise<ConnectionResponse["connection"]> {
  const response = await add({ name, environment: "sandbox", coreApiKey: OLD_KEY });
  expect(response.status).toBe(201);
  return (await json<ConnectionResponse>(response)).connection;
}

describe("a provider key's life", () => {
  it("refuses a provider key cut short, naming the field, before the service is asked", async () => {
    const refused = await add({ name: "Cut short", environment: "sandbox", coreApiKey: "lz_sbxmain1_" });
    expect(refused.status).toBe(400);
    expect(await json(refused)).toMatchObject({ error: { fields: ["coreApiKey"] } });
    expect(await h.sandbox.requests()).toEqual([]);
  });

  it("shows a provider key by its public part, valid a year by default, and an expiry stated later as stated", async () => {
    const connection = await added("Key life app");
    expect(connection.keyHint).toBe("lz_sbxmain1");
    expect(connection.keyExpiryStated).toBe(false);
    expect(Math.round((Date.parse(connection.keyExpiresAt!) - Date.now()) / DAY)).toBe(365);
    const day = new Date(Date.now() + 90 * DAY).toISOString().slice(0, 10);
    const stated = await json<ConnectionResponse>(await change(connection.id, { coreKeyExpiresAt: day }));
    expect(stated.connection).toMatchObject({ keyExpiresAt: `${day}T00:00:00.000Z`, keyExpiryStated: true });
    expect(JSON.stringify(stated)).not.toContain("Hq7pW2xLr9TfK4cVn8Zs");
  });

  it("a rotation keeps the old key's hint and grace, never past its own expiry, on the trail, and loses no request", async () => {
    const connection = await added("Rotated app");
    // Requests under the connection all through the rotation: each instance's clients move to the new key when they see
    // its version; the provider keeps the old key working through its grace, as the sandbox keeps both.
    let rotating = true;
    const statuses: number[] = [];
    const load = (async () => {
      // Until the rotation is done, and at least three requests whatever the machine's pace.
      while (rotating || statuses.length < 3) {
        const listed = await LIST_VERIFICATIONS(
          h.request(`http://localhost:3000/api/verifications?per_page=5&connection=${connection.id}`, { cookie: h.adminCookie }),
        );
        statuses.push(listed.status);
      }
    })();
    const rotated = await change(connection.id, { coreApiKey: NEW_KEY, graceHours: 48 });
    rotating = false;
    await load;
    expect(rotated.status).toBe(200);
    const { connection: after } = await json<ConnectionResponse>(rotated);
    expect(after.keyHint).toBe("lz_sbxmain2");
    expect(after.previousKey?.hint).toBe("lz_sbxmain1");
    expect(Math.round((Date.parse(after.previousKey!.until) - Date.now()) / 3_600_000)).toBe(48);
    expect(statuses.length).toBeGreaterThan(1);
    expect(statuses.filter((status) => status !== 200)).toEqual([]);
    const [event] = await h.db.db
      .select({ details: auditEvents.details })
      .from(auditEvents)
      .where(and(eq(auditEvents.action, "connection.rotate"), eq(auditEvents.target, connection.id)));
    expect(event?.details).toMatchObject({ graceHours: 48 });

    // The grace ends at the provider (its console, here the sandbox's stand-in): the old key is refused from then on,
    // and the connection goes on speaking with the new one.
    const grace = (seconds: number | null) =>
      fetch(`${h.sandbox.url}/sandbox/keys/lz_sbxmain1/grace`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ seconds }),
      });
    expect((await grace(0)).status).toBe(200);
    try {
      const direct = await fetch(`${h.sandbox.url}/core/public/validations-persons?per_page=1`, { headers: { "x-api-key": OLD_KEY } });
      expect(direct.status).toBe(401);
      const listed = await LIST_VERIFICATIONS(
        h.request(`http://localhost:3000/api/verifications?per_page=5&connection=${connection.id}`, { cookie: h.adminCookie }),
      );
      expect(listed.status).toBe(200);
    } finally {
      expect((await grace(null)).status).toBe(200);
    }

    // The current key expiring at tomorrow's start (less than a day away): a rotation's grace of 48 hours ends with it.
    const tomorrow = new Date(Date.now() + DAY).toISOString().slice(0, 10);
    expect((await change(connection.id, { coreKeyExpiresAt: tomorrow })).status).toBe(200);
    const again = await json<ConnectionResponse>(await change(connection.id, { coreApiKey: OLD_KEY, graceHours: 48 }));
    expect(again.connection.previousKey).toEqual({ hint: "lz_sbxmain2", until: `${tomorrow}T00:00:00.000Z` });
  });
});

describe("warnings before a key expires", () => {
  it("tells the integration admins who may use it at 30 days and at 7, once each; nobody else", async () => {
    const connection = await added("Expiring app");
    const otherAdmin = await createTestStaff(h.db.db, { role: "admin" });
    await setGrants(h.db.db, otherAdmin.id, [{ connectionId: "primary", withheld: [] }]);
    const expireIn = (days: number) =>
      h.db.db
        .update(connections)
        .set({ coreKeyExpiresAt: new Date(Date.now() + days * DAY) })
        .where(eq(connections.id, connection.id));
    const told = async () =>
      h.db.db
        .select({ userId: notifications.userId, dedupeKey: notifications.dedupeKey, link: notifications.link })
        .from(notifications)
        .where(and(eq(notifications.kind, "key_expiring"), eq(notifications.connectionId, connection.id)));
    const run = () => warnExpiringKeys(h.db.db, { holder: "key-life-test" });

    await expireIn(40);
    await run();
    expect(await told()).toEqual([]);
    await expireIn(20);
    await run();
    await run();
    const at30 = await told();
    expect(at30.map((row) => row.dedupeKey)).toContain(`key:1:30`);
    expect(new Set(at30.map((row) => row.userId))).toContain(h.adminId);
    // Given the sandbox only: this connection does not exist for them.
    expect(at30.map((row) => row.userId)).not.toContain(otherAdmin.id);
    expect(at30.filter((row) => row.userId === h.adminId)).toHaveLength(1);
    expect(at30[0]!.link).toBe("/admin/connections");
    await expireIn(5);
    await run();
    expect(
      (await told())
        .filter((row) => row.userId === h.adminId)
        .map((row) => row.dedupeKey)
        .sort(),
    ).toEqual(["key:1:30", "key:1:7"]);
  });
});
