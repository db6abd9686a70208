import { and, eq } from "drizzle-orm";
import { afterAll, beforeAll, expect, it } from "vitest";

import { auditEvents } from "@/lib/audit-trail/server/tables";
import type { StaffUserDto } from "@/lib/auth/types";
import { REVEAL_COOKIE } from "@/lib/integrations/server/reveal-cookie";
import { integrationKeys } from "@/lib/integrations/server/tables";
import type { CreatedIntegrationResponse, IntegrationListResponse, RetiredIntegrationResponse } from "@/lib/integrations/types";
import { createTestStaff, sessionCookieFor } from "@/test/auth";
import { describeEachDatabase } from "@/test/db";
import { cookiePair, json, startPartnersHarness, type PartnersHarness } from "@/test/partners-ops";
import { startSandbox, type SandboxHandle } from "@/test/sandbox";

import { POST as retire } from "./[upstreamId]/retire/route";
import { POST as reveal } from "./reveal/route";
import { POST as create, GET } from "./route";

/*
 * Retiring an integration key (POST /api/integrations/{upstreamId}/retire), against a real sandbox: the key is marked
 * retired in the registry with who, when and why, and listed so; nothing is sent to the service (the contract offers
 * no way to revoke a key); the event is on the trail; a missing or bad reason is a 400 naming `reason`, an unknown key
 * 404, a second retire 409; the key leaves the admin's reveal cookie.
 */

const BASE = "http://localhost:3000/api/integrations";
type Refusal = { error: { code: string; fields?: string[] } };

// One sandbox for both databases' suites: the partners client keeps the first address it was built with.
let sandbox: SandboxHandle;
beforeAll(async () => {
  sandbox = await startSandbox();
});
afterAll(async () => {
  await sandbox?.stop();
});

describeEachDatabase("retiring an integration key on $name", (kind) => {
  let h: PartnersHarness;
  let admin: StaffUserDto;
  let adminCookie: string;
  let counter = 0;

  beforeAll(async () => {
    h = await startPartnersHarness({}, kind, sandbox);
    admin = await createTestStaff(h.db.db, { role: "admin" });
    adminCookie = await sessionCookieFor(h.db.db, admin);
  });
  afterAll(async () => {
    await h?.dispose();
  });

  /** A key created through the route, and the reveal cookie its creation set. */
  async function createKey(): Promise<{ upstreamId: number; label: string; revealCookie: string }> {
    counter += 1;
    const label = `Retire ${counter}`;
    const response = await create(
      h.request(BASE, { method: "POST", cookie: adminCookie, body: { domain: `retire${counter}.example.com`, label } }),
    );
    expect(response.status).toBe(201);
    const { integration } = await json<CreatedIntegrationResponse>(response);
    return { upstreamId: integration.upstreamId!, label, revealCookie: cookiePair(response, REVEAL_COOKIE)! };
  }

  const retireCall = (upstreamId: number | string, body: unknown, cookie = adminCookie) =>
    retire(h.request(`${BASE}/${upstreamId}/retire`, { method: "POST", cookie, body }), {
      params: Promise.resolve({ upstreamId: String(upstreamId) }),
    });

  async function listed(cookie = adminCookie): Promise<IntegrationListResponse> {
    const response = await GET(h.request(BASE, { cookie }));
    expect(response.status).toBe(200);
    return json<IntegrationListResponse>(response);
  }

  const retireEvents = (upstreamId: number) =>
    h.db.db
      .select()
      .from(auditEvents)
      .where(and(eq(auditEvents.action, "integration.retire"), eq(auditEvents.target, String(upstreamId))));

  it("lists every key as active until retired; retiring marks it with who, when and why, and calls nothing upstream", async () => {
    const kept = await createKey();
    const key = await createKey();
    const before = await listed();
    expect(before.keys.find((entry) => entry.upstreamId === key.upstreamId)).toMatchObject({
      state: "active",
      retiredAt: null,
      retiredByEmail: null,
      retireReason: null,
    });

    await h.sandbox.clearRequests();
    const response = await retireCall(key.upstreamId, { reason: "  The store closed  " });
    expect(response.status).toBe(200);
    expect(response.headers.get("cache-control")).toBe("no-store");
    const { key: retired } = await json<RetiredIntegrationResponse>(response);
    expect(retired).toMatchObject({
      upstreamId: key.upstreamId,
      state: "retired",
      retiredByEmail: admin.email,
      retireReason: "The store closed",
    });
    expect(Date.now() - Date.parse(retired.retiredAt!)).toBeLessThan(60_000);
    // No operation of the contract revokes a key: the service is not called.
    expect(await h.sandbox.requests()).toEqual([]);

    const after = await listed();
    expect(after.keys.find((entry) => entry.upstreamId === key.upstreamId)).toEqual(retired);
    expect(after.keys.find((entry) => entry.upstreamId === kept.upstreamId)?.state).toBe("active");
  });

  it("records integration.retire with the actor, the key and the reason, in the transaction that marked it", async () => {
    const key = await createKey();
    expect((await retireCall(key.upstreamId, { reason: "Rotated to a new key" })).status).toBe(200);
    const events = await retireEvents(key.upstreamId);
    expect(events).toHaveLength(1);
    expect(events[0]).toMatchObject({ actorId: admin.id, targetType: "integration", outcome: "success" });
    expect(events[0]!.details).toMatchObject({
      label: key.label,
      domain: expect.stringContaining(".example.com"),
      retireReason: "Rotated to a new key",
    });
    const [row] = await h.db.db.select().from(integrationKeys).where(eq(integrationKeys.upstreamId, key.upstreamId));
    expect(row).toMatchObject({ retiredBy: admin.id, retireReason: "Rotated to a new key" });
    expect(row!.retiredAt).toBeInstanceOf(Date);
  });

  it("takes the key out of this admin's reveal cookie", async () => {
    const key = await createKey();
    const cookie = `${adminCookie}; ${key.revealCookie}`;
    expect((await listed(cookie)).revealable.map((entry) => entry.upstreamId)).toContain(key.upstreamId);
    const response = await retireCall(key.upstreamId, { reason: "Created by mistake" }, cookie);
    expect(response.status).toBe(200);
    const left = cookiePair(response, REVEAL_COOKIE);
    expect(left).toBeDefined();
    expect((await listed(`${adminCookie}; ${left}`)).revealable.map((entry) => entry.upstreamId)).not.toContain(key.upstreamId);
  });

  it("no longer shows a key's value to its creator once another admin retired it", async () => {
    const key = await createKey();
    const cookie = `${adminCookie}; ${key.revealCookie}`;
    const revealing = () => reveal(h.request(`${BASE}/reveal`, { method: "POST", cookie, body: { upstreamId: key.upstreamId } }));
    expect((await revealing()).status).toBe(200);
    const other = await createTestStaff(h.db.db, { role: "admin" });
    expect((await retireCall(key.upstreamId, { reason: "Leaked in a ticket" }, await sessionCookieFor(h.db.db, other))).status).toBe(200);
    const refused = await revealing();
    expect(refused.status).toBe(404);
    expect(await json(refused)).not.toHaveProperty("integration");
  });

  it("refuses a missing, empty, too long or unsafe reason with a 400 naming `reason`, and leaves the key active", async () => {
    const key = await createKey();
    const bad = [
      {},
      { reason: "" },
      { reason: "   " },
      { reason: 42 },
      { reason: "x".repeat(301) },
      { reason: "Leaked: 3f2b8c1e-9a4d-4e7f-8b6a-1c2d3e4f5a6b" },
      { reason: "See https://tickets.example.com/123" },
      { reason: "Bad\u202Ereason" },
    ];
    for (const body of bad) {
      const response = await retireCall(key.upstreamId, body);
      expect(response.status, JSON.stringify(body)).toBe(400);
      expect((await json<Refusal>(response)).error).toMatchObject({ code: "validation", fields: ["reason"] });
    }
    expect((await listed()).keys.find((entry) => entry.upstreamId === key.upstreamId)?.state).toBe("active");
    expect((await retireEvents(key.upstreamId)).filter((event) => event.outcome === "success")).toEqual([]);
  });

  it("answers 404 for a key not created here and 400 naming `upstreamId` for an id that is not one", async () => {
    const unknown = await retireCall(987654321, { reason: "Not ours" });
    expect(unknown.status).toBe(404);
    expect((await json<Refusal>(unknown)).error.code).toBe("not_found");
    expect((await retireEvents(987654321)).map((event) => event.outcome)).toEqual(["failure"]);

    const malformed = await retireCall("abc", { reason: "Not an id" });
    expect(malformed.status).toBe(400);
    expect((await json<Refusal>(malformed)).error).toMatchObject({ code: "validation", fields: ["upstreamId"] });
  });

  it("answers 409 when the key is already retired, keeping the first retirement", async () => {
    const key = await createKey();
    expect((await retireCall(key.upstreamId, { reason: "First reason" })).status).toBe(200);
    const again = await retireCall(key.upstreamId, { reason: "Second reason" });
    expect(again.status).toBe(409);
    expect((await json<Refusal>(again)).error.code).toBe("conflict");
    expect((await listed()).keys.find((entry) => entry.upstreamId === key.upstreamId)?.retireReason).toBe("First reason");
    const events = await retireEvents(key.upstreamId);
    expect(events.map((event) => event.outcome).sort()).toEqual(["failure", "success"]);
    expect(events.find((event) => event.outcome === "failure")?.details).toMatchObject({ reason: "already_retired" });
  });

  it("two retires at once: one succeeds, the other is refused with 409", async () => {
    const key = await createKey();
    const answers = await Promise.all([retireCall(key.upstreamId, { reason: "One" }), retireCall(key.upstreamId, { reason: "Two" })]);
    expect(answers.map((answer) => answer.status).sort()).toEqual([200, 409]);
    expect((await retireEvents(key.upstreamId)).filter((event) => event.outcome === "success")).toHaveLength(1);
  });

  it("needs integrations.manage and a fresh step-up, before anything changes", async () => {
    const key = await createKey();
    expect((await retireCall(key.upstreamId, { reason: "Analyst" }, h.analystCookie)).status).toBe(403);
    const stale = await sessionCookieFor(h.db.db, admin, { stepUp: false });
    const refused = await retireCall(key.upstreamId, { reason: "No step-up" }, stale);
    expect(refused.status).toBe(401);
    expect((await json<Refusal>(refused)).error.code).toBe("step_up_required");
    expect((await listed()).keys.find((entry) => entry.upstreamId === key.upstreamId)?.state).toBe("active");
  });
});
