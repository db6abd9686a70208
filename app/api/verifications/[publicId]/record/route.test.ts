import { asc, eq, or } from "drizzle-orm";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";

import { POST as manualLookup } from "@/app/api/lookups/cpf/route";
import { POST as create } from "@/app/api/verifications/route";
import { auditEvents } from "@/lib/audit-trail/server/tables";
import type { RecordLookupResponse } from "@/lib/lookups/types";
import type { CpfHistoryRecord, FederalRevenueRecord } from "@/lib/upstream/model/partners";
import { createStaffHolding, createTestStaff, sessionCookieFor } from "@/test/auth";
import { json, startPartnersHarness, type PartnersHarness } from "@/test/partners-ops";

import { POST } from "./route";

/*
 * POST /api/verifications/:publicId/record against a real sandbox whose key shows documents unmasked (the server
 * reads the CPF itself): bad input refused by field before any call, the lookups' permission, the intent on the
 * trail before anything else, each source counted in the same quota as a manual lookup, the records masked for a
 * member who sees data masked, and the CPF in no address, log or stored row.
 */

const BASE = "http://localhost:3000/api";
const CPF = "52998224725";
const PURPOSE = "KYC review of verification";
let h: PartnersHarness;
let publicId: string;

type ErrorBody = { error: { code: string; fields?: string[] } };
const params = (id: string) => ({ params: Promise.resolve({ publicId: id }) });
const record = (body: unknown, cookie: string, id = publicId) =>
  POST(h.request(`${BASE}/verifications/${id}/record`, { method: "POST", cookie, body }), params(id));
const freshAnalyst = async () => sessionCookieFor(h.db.db, await createTestStaff(h.db.db, { role: "analyst" }));

beforeAll(async () => {
  h = await startPartnersHarness({ CORE_API_KEY: "sbx_core_unmasked", LOOKUP_LIMIT_PER_MINUTE: "3", LOOKUP_LIMIT_PER_DAY: "50" });
  const body = { schemaVersion: "1", refId: `record-${Date.now()}`, document: { type: "cpf", number: CPF } };
  const created = await create(h.request(`${BASE}/verifications`, { method: "POST", cookie: h.adminCookie, body }));
  expect(created.status).toBe(201);
  publicId = (await json<{ created: { publicId: string } }>(created)).created.publicId;
});
afterAll(async () => {
  await h?.dispose();
});
beforeEach(async () => {
  await h.sandbox.clearRequests();
});

describe("input and permission", () => {
  it.each([
    ["no purpose", { sources: ["receita"] }, ["purpose"]],
    ["a CPF inside the purpose", { purpose: "check 529.982.247-25", sources: ["receita"] }, ["purpose"]],
    ["no source", { purpose: PURPOSE, sources: [] }, ["sources"]],
    ["an unknown source", { purpose: PURPOSE, sources: ["serasa"] }, ["sources.0"]],
    ["a source twice", { purpose: PURPOSE, sources: ["history", "history"] }, ["sources"]],
    ["a CPF with a wrong check digit", { purpose: PURPOSE, sources: ["receita"], cpf: "529.982.247-24" }, ["cpf"]],
    ["an unknown field", { purpose: PURPOSE, sources: ["receita"], token: "x" }, ["(input)"]],
  ])("refuses %s with a 400 naming the field, and calls nothing", async (_name, body, fields) => {
    const response = await record(body, h.analystCookie);
    expect(response.status).toBe(400);
    expect((await json<ErrorBody>(response)).error).toMatchObject({ code: "validation", fields });
    expect(await h.sandbox.requests()).toEqual([]);
  });

  it("refuses a purpose naming the verification by its id, a UUID the trail does not hold", async () => {
    const response = await record({ purpose: `${PURPOSE} ${publicId}`, sources: ["receita"] }, h.analystCookie);
    expect((await json<ErrorBody>(response)).error.fields).toEqual(["purpose"]);
    expect(await h.sandbox.requests()).toEqual([]);
  });

  it("refuses an id that could change the upstream path", async () => {
    const response = await record({ purpose: PURPOSE, sources: ["receita"] }, h.analystCookie, "..%2Fx");
    expect(response.status).toBe(400);
    expect((await json<ErrorBody>(response)).error.fields).toEqual(["publicId"]);
  });

  it("is the lookups' permission, and opening verifications too; anonymous callers are refused", async () => {
    const body = { purpose: PURPOSE, sources: ["receita"] };
    const viewer = await sessionCookieFor(h.db.db, await createTestStaff(h.db.db, { role: "viewer" }));
    expect((await record(body, viewer)).status).toBe(403);
    const lookupsOnly = await sessionCookieFor(h.db.db, await createStaffHolding(h.db.db, ["lookups.run"], "Lookups only"));
    expect((await record(body, lookupsOnly)).status).toBe(403);
    expect((await record(body, "")).status).toBe(401);
    expect(await h.sandbox.requests()).toEqual([]);
  });
});

describe("the records", () => {
  it("answers both records for the verification's document, read on the server", async () => {
    const response = await record({ purpose: PURPOSE, sources: ["receita", "history"] }, await freshAnalyst());
    expect(response.status).toBe(200);
    expect(response.headers.get("cache-control")).toBe("no-store");
    const body = await json<RecordLookupResponse>(response);
    expect(body.results.map((result) => result.source)).toEqual(["receita", "history"]);
    const [receita, history] = body.results.map((result) => result.record) as [FederalRevenueRecord, CpfHistoryRecord];
    expect(receita).toMatchObject({ cpf: CPF, name: "MARIANA LUIZA COSTA RIBEIRO", birthDate: "1988-04-17" });
    expect(history).toMatchObject({ cpf: CPF, motherName: "HELENA ALMEIDA COSTA" });
    const paths = (await h.sandbox.requests()).map((request) => request.path);
    expect(paths).toEqual(expect.arrayContaining(["/partners/receita-federal/cpf", "/partners/kyc/cpf-history"]));
    expect(paths.some((path) => path.includes(publicId))).toBe(true);
  });

  it("masks both records for a member who sees personal data masked", async () => {
    const masked = await createStaffHolding(h.db.db, ["lookups.run", "verifications.read"], "Masked records");
    const response = await record({ purpose: PURPOSE, sources: ["receita", "history"] }, await sessionCookieFor(h.db.db, masked));
    expect(response.status).toBe(200);
    const text = await response.clone().text();
    const body = await json<RecordLookupResponse>(response);
    expect(body.results.every((result) => result.maskedBy === "dashboard")).toBe(true);
    expect(body.results[0]!.record).toMatchObject({ cpf: "***.982.247-**", birthDate: "****-**-**" });
    for (const clear of [CPF, "MARIANA", "HELENA", "1988-04-17"]) expect(text).not.toContain(clear);
  });
});

describe("trail and quota", () => {
  it("records the intent on the verification first, then the read and each lookup, then the outcome", async () => {
    const purpose = `Intent order check ${Date.now()}`;
    expect((await record({ purpose, sources: ["receita", "history"] }, await freshAnalyst())).status).toBe(200);
    const events = await h.db.db
      .select()
      .from(auditEvents)
      .where(or(eq(auditEvents.purpose, purpose), eq(auditEvents.action, "verification.view")))
      .orderBy(asc(auditEvents.id));
    const ours = events.slice(events.findIndex((event) => event.purpose === purpose));
    expect(ours.map((event) => `${event.action}:${event.outcome}`)).toEqual([
      "lookup.verification_record:intent",
      "verification.view:success",
      "lookup.cpf_receita:success",
      "lookup.cpf_history:success",
      "lookup.verification_record:success",
    ]);
    expect(ours[0]).toMatchObject({ targetType: "verification", target: publicId });
    // Each lookup is on the trail as a manual one: the CPF masked and hashed.
    expect(ours[2]).toMatchObject({ target: "***.982.247-**", purpose });
    expect(ours[2]!.targetHash).toMatch(/^[0-9a-f]{64}$/);
  });

  it("counts each source in the member's lookup quota, the same one a manual lookup spends", async () => {
    const cookie = await freshAnalyst();
    expect((await record({ purpose: PURPOSE, sources: ["receita", "history"] }, cookie)).status).toBe(200);
    const manual = { cpf: CPF, source: "receita", purpose: PURPOSE };
    expect((await manualLookup(h.request(`${BASE}/lookups/cpf`, { method: "POST", cookie, body: manual }))).status).toBe(200);
    await h.sandbox.clearRequests();
    // Three lookups spent of three a minute: refused before the partners API is called.
    const refused = await record({ purpose: PURPOSE, sources: ["history"] }, cookie);
    expect(refused.status).toBe(429);
    expect(
      (await h.sandbox.requests()).filter((request) => request.path.startsWith("/partners/kyc") || request.path.includes("receita")),
    ).toEqual([]);
  });

  it("keeps the CPF out of every log line and stored row (the trail holds it masked and hashed)", async () => {
    const text = await h.allText();
    const logs = h.logLines.join("\n");
    for (const form of [CPF, "529.982.247-25"]) {
      expect(text).not.toContain(form);
      expect(logs).not.toContain(form);
    }
  });
});
