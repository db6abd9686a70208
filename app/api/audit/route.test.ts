import { desc, eq, sql } from "drizzle-orm";
import { beforeAll, expect, it } from "vitest";

import { cpfHash, recordEvent } from "@/lib/audit-trail/server/record";
import { auditEvents } from "@/lib/audit-trail/server/tables";
import { verifyAuditChain } from "@/lib/audit-trail/server/verify";
import type { AuditPage } from "@/lib/audit-trail/types";
import { appendChained, syntheticEvents } from "@/test/audit-trail";
import { apiRequest, createStaffHolding, createTestStaff, sessionCookieFor } from "@/test/auth";
import { describeEachDatabase, withProcessDatabase, withTestEnvironment } from "@/test/db";

import { GET } from "./route";

const CPF = "52998224725";
const OTHER_CPF = "11144477735";

withTestEnvironment({}, { quiet: true });

describeEachDatabase("GET /api/audit on $name", ({ open }) => {
  const handle = withProcessDatabase(open);
  let adminCookie: string;
  let analystCookie: string;
  let adminEmail: string;
  let analystId: string;
  let adminId: string;

  beforeAll(async () => {
    const admin = await createTestStaff(handle.db, { role: "admin" });
    const analyst = await createTestStaff(handle.db, { role: "analyst" });
    adminEmail = admin.email;
    adminId = admin.id;
    analystId = analyst.id;
    adminCookie = await sessionCookieFor(handle.db, admin);
    analystCookie = await sessionCookieFor(handle.db, analyst);
    const actor = { id: analyst.id, email: analyst.email };
    await recordEvent(
      { actor, action: "lookup.cpf", target: { type: "cpf", cpf: CPF }, purpose: "onboarding", outcome: "success", ip: "10.1.1.1" },
      handle.db,
    );
    await recordEvent(
      {
        actor,
        action: "lookup.cpf",
        target: { type: "cpf", cpf: OTHER_CPF },
        purpose: '=HYPERLINK("x")',
        outcome: "failure",
        ip: "10.1.1.1",
      },
      handle.db,
    );
    await recordEvent({ actor, action: "kyc.session_create", target: { type: "cpf", cpf: CPF }, outcome: "success" }, handle.db);
  });

  const get = (query = "", { cookie = adminCookie, headers = {} }: { cookie?: string; headers?: Record<string, string> } = {}) =>
    GET(apiRequest(`/api/audit${query}`, { cookie, headers: { "x-kyc-peer-address": "192.0.2.7", ...headers } }));

  async function lastEvent() {
    const [row] = await handle.db.select().from(auditEvents).orderBy(desc(auditEvents.id)).limit(1);
    return row!;
  }

  it("refuses anonymous callers, and refuses analysts while recording the attempt", async () => {
    expect((await get("", { cookie: "" })).status).toBe(401);
    const response = await get("?action=lookup.cpf", { cookie: analystCookie });
    expect(response.status).toBe(403);
    expect(await lastEvent()).toMatchObject({ action: "audit.view", outcome: "denied", actorId: analystId });
    expect((await get("?format=csv", { cookie: analystCookie })).status).toBe(403);
    expect(await lastEvent()).toMatchObject({ action: "audit.export", outcome: "denied", actorId: analystId });
  });

  it("never streams CSV to a member holding audit.read without audit.export, however the format is written", async () => {
    const reader = await createStaffHolding(handle.db, ["audit.read"], "Audit reader");
    const cookie = await sessionCookieFor(handle.db, reader);
    // Read as csv once trimmed: refused for want of audit.export, and the attempt is on the trail.
    for (const query of ["?format=csv", "?format=csv%20", "?format=%20csv", "?format=csv%09", "?format=%0Acsv"]) {
      const response = await get(query, { cookie });
      expect(response.status, query).toBe(403);
      expect(response.headers.get("content-type"), query).not.toMatch(/csv/);
      expect(await lastEvent(), query).toMatchObject({ action: "audit.export", outcome: "denied", actorId: reader.id });
    }
    // Given twice (whichever comes first), or not one of json and csv: a 400 naming `format`.
    for (const query of [
      "?format=&format=csv",
      "?format=csv&format=",
      "?format=json&format=csv",
      "?format=csv&format=csv",
      "?format=CSV",
    ]) {
      const response = await get(query, { cookie });
      expect(response.status, query).toBe(400);
      expect(((await response.json()) as { error: { fields: string[] } }).error.fields, query).toEqual(["format"]);
    }
    expect((await get("?format=json", { cookie })).status).toBe(200);
    // The same spellings give an admin the CSV.
    const csv = await get("?format=csv%20&action=kyc.session_create");
    expect(csv.status).toBe(200);
    expect(csv.headers.get("content-type")).toBe("text/csv; charset=utf-8");
  });

  it("lists events for an admin, filtered, and records the viewing with its filters and address", async () => {
    const response = await get("?action=lookup.cpf&limit=10");
    expect(response.status).toBe(200);
    expect(response.headers.get("cache-control")).toBe("no-store");
    const page = (await response.json()) as AuditPage;
    expect(page.events.map((event) => [event.action, event.target, event.outcome])).toEqual([
      ["lookup.cpf", "***.444.777-**", "failure"],
      ["lookup.cpf", "***.982.247-**", "success"],
    ]);
    expect(page.nextCursor).toBeNull();
    expect(Object.keys(page.events[0]!).sort()).toEqual([
      "action",
      "actorEmail",
      "actorId",
      "at",
      "connectionId",
      "details",
      "id",
      "ip",
      "outcome",
      "purpose",
      "target",
      "targetType",
    ]);
    expect(await lastEvent()).toMatchObject({
      action: "audit.view",
      outcome: "success",
      actorEmail: adminEmail,
      ip: "192.0.2.7",
      details: { action: "lookup.cpf", page: "first", shown: 2 },
    });
  });

  it("searches by CPF from its header, shows it masked, and records the search under the CPF's hash", async () => {
    const response = await get("", { headers: { "x-search-cpf": "529.982.247-25" } });
    expect(response.status).toBe(200);
    const page = (await response.json()) as AuditPage;
    expect(page.events.map((event) => event.action)).toEqual(["kyc.session_create", "lookup.cpf"]);
    expect(JSON.stringify(page)).not.toContain(CPF);
    expect(await lastEvent()).toMatchObject({
      action: "audit.view",
      targetType: "cpf",
      target: "***.982.247-**",
      targetHash: cpfHash(CPF),
    });
    // The next search for that CPF finds the search itself: who looked the person up in the log.
    const again = (await (await get("?action=audit.view", { headers: { "x-search-cpf": CPF } })).json()) as AuditPage;
    expect(again.events).toHaveLength(1);
  });

  it("refuses a CPF in the URL, a bad CPF header, a full CPF as target and unknown parameters, naming each", async () => {
    const cases: Array<[string, Record<string, string>, string[]]> = [
      [`?cpf=${CPF}`, {}, ["cpf"]],
      ["", { "x-search-cpf": "529.982.247-24" }, ["x-search-cpf"]],
      [`?target=${CPF}`, {}, ["target"]],
      ["?page=2", {}, ["page"]],
      ["?from=2026-03-10&to=2026-03-01", {}, ["from"]],
      ["?cursor=Zm9v", {}, ["cursor"]],
      ["?target=***.982.247-**", { "x-search-cpf": CPF }, ["target"]],
    ];
    for (const [query, headers, fields] of cases) {
      const response = await get(query, { headers });
      expect(response.status, query).toBe(400);
      const body = (await response.json()) as { error: { code: string; fields: string[] } };
      expect(body.error.fields, query).toEqual(fields);
    }
    const rows = await handle.db.execute(sql`select row_to_json(t)::text as line from audit_events t`);
    expect(JSON.stringify(rows)).not.toContain(CPF);
  });

  it("pages with the cursor it returns", async () => {
    const first = (await (await get("?limit=2")).json()) as AuditPage;
    expect(first.events).toHaveLength(2);
    expect(first.nextCursor).toEqual(expect.any(String));
    const second = (await (await get(`?limit=2&cursor=${first.nextCursor}`)).json()) as AuditPage;
    expect(second.events[0]!.id).toBeLessThan(first.events[1]!.id);
    expect(await lastEvent()).toMatchObject({ action: "audit.view", details: { page: "next" } });
  });

  it("exports the filter as CSV, streamed in batches, formula-safe, and records the export", async () => {
    await appendChained(handle.db, syntheticEvents({ count: 2600, start: new Date("2025-01-01T00:00:00Z"), spanDays: 30, cpfs: 50 }));
    const response = await get("?format=csv&to=2025-12-31");
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toBe("text/csv; charset=utf-8");
    expect(response.headers.get("content-disposition")).toMatch(/^attachment; filename="audit-\d{8}-\d{6}\.csv"$/);
    expect(await lastEvent()).toMatchObject({ action: "audit.export", outcome: "success", details: { format: "csv", to: "2025-12-31" } });

    const reader = response.body!.getReader();
    const decoder = new TextDecoder("utf-8", { ignoreBOM: true });
    let text = "";
    let chunks = 0;
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      chunks += 1;
      text += decoder.decode(value, { stream: true });
    }
    // Header, then one chunk per batch of 1000: the rows were never all in memory at once.
    expect(chunks).toBe(4);
    const lines = text.split("\r\n").filter(Boolean);
    expect(lines[0]).toBe(
      "\uFEFFid,at,actor_id,actor_email,action,target_type,target,purpose,outcome,ip,details,prev_hash,hash,connection",
    );
    expect(lines).toHaveLength(2601);

    const all = await (await get("?format=csv&action=lookup.cpf&outcome=failure")).text();
    expect(all).toContain(`"'=HYPERLINK(""x"")"`);
    expect(all).not.toMatch(/,=HYPERLINK/);
  });

  it("names the staff a page mentions (actors and staff targets) by name and email; a member since gone keeps the recorded email", async () => {
    const admin = { id: adminId, email: adminEmail };
    await recordEvent({ actor: admin, action: "staff.change", target: { type: "staff", id: analystId }, outcome: "success" }, handle.db);
    const goneId = "0f0e0d0c-0b0a-4909-8807-060504030201";
    await recordEvent({ actor: { id: goneId, email: "gone@test.local" }, action: "staff.change", outcome: "success" }, handle.db);
    const page = (await (await get("?action=staff.change")).json()) as AuditPage;
    expect(page.events.map((event) => event.actorEmail)).toEqual(["gone@test.local", adminEmail]);
    expect(page.staff[adminId]).toEqual({ name: "Test admin", email: adminEmail });
    expect(page.staff[analystId]).toMatchObject({ name: "Test analyst" });
    expect(page.staff[goneId]).toBeUndefined();
    // Only the staff this page names.
    expect(Object.keys(page.staff).sort()).toEqual([adminId, analystId].sort());
  });

  it("writes the request's page view into its events: the browser's when well-formed, else one of its own", async () => {
    const view = "abcdefghijklmnopqrst";
    expect((await get("", { headers: { "x-page-view": view } })).status).toBe(200);
    expect((await lastEvent()).details).toMatchObject({ pageView: view });
    expect((await get("", { headers: { "x-page-view": "529.982.247-25" } })).status).toBe(200);
    const own = (await lastEvent()).details.pageView;
    expect(own).toMatch(/^[a-z]{20}$/);
    expect(own).not.toBe(view);
  });

  it("leaves a chain that verifies, every access included", async () => {
    const result = await verifyAuditChain(handle.db);
    expect(result.ok).toBe(true);
    const [views] = await handle.db
      .select({ n: sql<number>`count(*)::int` })
      .from(auditEvents)
      .where(eq(auditEvents.action, "audit.view"));
    expect(views!.n).toBeGreaterThanOrEqual(5);
  });
});
