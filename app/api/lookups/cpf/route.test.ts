import { afterEach, describe, expect, it, vi } from "vitest";

import type { CpfHistoryRecord, FederalRevenueRecord } from "@/lib/upstream/model/partners";
import { createStaffHolding, createTestStaff, sessionCookieFor } from "@/test/auth";
import { json, withPartnersHarness } from "@/test/partners-ops";

import { POST } from "./route";

/*
 * Manual CPF lookups through the route handler, against a real sandbox: bad input refused before any
 * call, both sources reshaped, special people flagged, per-user limits (per minute, per day) in the
 * database, and every lookup in the audit trail with its purpose, the CPF masked and hashed only.
 */

const h = withPartnersHarness({ LOOKUP_LIMIT_PER_MINUTE: "3", LOOKUP_LIMIT_PER_DAY: "5" });
const URL = "http://localhost:3000/api/lookups/cpf";
const ORDINARY = "529.982.247-25";
const DECEASED = "111.444.777-35";
const PEP = "390.533.447-05";
const EMPTIES = "123.456.789-09";

afterEach(() => {
  vi.useRealTimers();
});

/** A fresh analyst per test, so the per-user limits of one test do not spill into the next. */
async function freshAnalyst(): Promise<string> {
  const user = await createTestStaff(h.db.db, { role: "analyst" });
  return sessionCookieFor(h.db.db, user);
}

function lookup(body: Record<string, unknown>, cookie: string) {
  return POST(h.request(URL, { method: "POST", cookie, body }));
}

type ErrorBody = { error: { code: string; message: string; fields?: string[] } };

describe("input", () => {
  it.each([
    ["a wrong check digit", { cpf: "529.982.247-24", source: "receita", purpose: "Onboarding check" }, ["cpf"]],
    ["repeated digits", { cpf: "111.111.111-11", source: "history", purpose: "Onboarding check" }, ["cpf"]],
    ["too few digits", { cpf: "529.982.247", source: "receita", purpose: "Onboarding check" }, ["cpf"]],
    ["no purpose", { cpf: ORDINARY, source: "receita" }, ["purpose"]],
    ["a blank purpose", { cpf: ORDINARY, source: "receita", purpose: "   " }, ["purpose"]],
    ["an unknown source", { cpf: ORDINARY, source: "serasa", purpose: "Onboarding check" }, ["source"]],
    ["a CPF inside the purpose", { cpf: ORDINARY, source: "receita", purpose: "check 529.982.247-25 please" }, ["purpose"]],
    ["an unknown field", { cpf: ORDINARY, source: "receita", purpose: "Onboarding check", token: "x" }, ["(input)"]],
  ])("refuses %s with a 400 naming the field, and calls nothing", async (_name, body, fields) => {
    const response = await lookup(body, h.analystCookie);
    expect(response.status).toBe(400);
    const error = (await json<ErrorBody>(response)).error;
    expect(error.code).toBe("validation");
    expect(error.fields).toEqual(fields);
    expect(await h.sandbox.requests()).toEqual([]);
  });

  it("refuses anonymous callers", async () => {
    expect((await lookup({ cpf: ORDINARY, source: "receita", purpose: "Onboarding check" }, "")).status).toBe(401);
  });
});

describe("sources", () => {
  it("federal revenue: the record card, the CPF sent in the query with Origin, never stored", async () => {
    const response = await lookup({ cpf: "529 982 247 25", source: "receita", purpose: "Onboarding check" }, h.analystCookie);
    expect(response.status).toBe(200);
    expect(response.headers.get("cache-control")).toBe("no-store");
    const body = await json<{ source: string; record: FederalRevenueRecord }>(response);
    expect(body.source).toBe("receita");
    expect(body.record.cpf).toBe("52998224725");
    expect(body.record.name).toBeTruthy();
    expect(body.record.deceased).toBe(false);
    expect(body.record.situation).toBeTruthy();
    const sent = await h.sandbox.requests();
    expect(sent.map((request) => request.path)).toContain("/partners/receita-federal/cpf");
  });

  it("enrichment: mother's name, gender, age, nationality, PEP and situation", async () => {
    const body = await json<{ source: string; record: CpfHistoryRecord }>(
      await lookup({ cpf: ORDINARY, source: "history", purpose: "Onboarding check" }, h.analystCookie),
    );
    expect(body.source).toBe("history");
    expect(body.record).toMatchObject({ cpf: "52998224725", pep: false, deceased: false });
    for (const field of ["motherName", "gender", "age", "nationality", "situation"] as const) expect(body.record[field]).toBeTruthy();
  });

  it("flags a deceased person in both sources and a PEP in the enrichment", async () => {
    const cookie = await freshAnalyst();
    const receita = await json<{ record: FederalRevenueRecord }>(
      await lookup({ cpf: DECEASED, source: "receita", purpose: "Fraud review" }, cookie),
    );
    expect(receita.record.deceased).toBe(true);
    expect(receita.record.deathYear).toBeGreaterThan(1900);
    const history = await json<{ record: CpfHistoryRecord }>(
      await lookup({ cpf: DECEASED, source: "history", purpose: "Fraud review" }, cookie),
    );
    expect(history.record.deceased).toBe(true);
    const pep = await json<{ record: CpfHistoryRecord }>(await lookup({ cpf: PEP, source: "history", purpose: "Fraud review" }, cookie));
    expect(pep.record.pep).toBe(true);
  });

  it("unknown values (empty strings) arrive as null, for the page to say 'not informed'", async () => {
    const cookie = await freshAnalyst();
    const body = await json<{ record: CpfHistoryRecord }>(
      await lookup({ cpf: EMPTIES, source: "history", purpose: "Data quality check" }, cookie),
    );
    const values = Object.values(body.record);
    expect(values).not.toContain("");
    expect(values).toContain(null);
  });
});

describe("a member without personal_data.unmasked", () => {
  it("gets both records masked by the dashboard: no CPF, name, birth date or contact in clear, unknown fields dropped", async () => {
    const masked = await sessionCookieFor(h.db.db, await createStaffHolding(h.db.db, ["lookups.run"], "Masked lookups"));
    for (const source of ["receita", "history"] as const) {
      const clear = await json<{ record: FederalRevenueRecord & CpfHistoryRecord }>(
        await lookup({ cpf: ORDINARY, source, purpose: "Onboarding check" }, await freshAnalyst()),
      );
      const response = await lookup({ cpf: ORDINARY, source, purpose: "Onboarding check" }, masked);
      expect(response.status).toBe(200);
      const text = await response.clone().text();
      const body = await json<{ maskedBy?: string; record: FederalRevenueRecord & CpfHistoryRecord }>(response);
      expect(body.maskedBy).toBe("dashboard");
      expect(body.record).toMatchObject({ cpf: "***.982.247-**", birthDate: "****-**-**", checkDigits: null, extra: {} });
      expect(clear.record.name).toBeTruthy();
      for (const word of clear.record.name!.split(" ").filter((part) => part.length > 3)) expect(text).not.toContain(word);
      expect(text).not.toContain(clear.record.birthDate!);
      expect(text).not.toMatch(/529\.?982\.?247-?25/);
      expect(body.record.deceased).toBe(false);
    }
  });
});

describe("per-user limits", () => {
  it("refuses the lookup past the per-minute limit with 429, then past the per-day limit", async () => {
    const cookie = await freshAnalyst();
    const body = { cpf: ORDINARY, source: "receita", purpose: "Limit test" };
    for (let index = 0; index < 3; index += 1) expect((await lookup(body, cookie)).status).toBe(200);
    await h.sandbox.clearRequests();
    const minute = await lookup(body, cookie);
    expect(minute.status).toBe(429);
    expect(minute.headers.get("x-ratelimit-scope")).toBe("minute");
    expect(Number(minute.headers.get("retry-after"))).toBeGreaterThan(0);
    expect((await json<ErrorBody>(minute)).error.message).toMatch(/3 CPF lookups per minute/);
    // Refused before the service is called.
    expect(await h.sandbox.requests()).toEqual([]);

    // Another analyst is not affected.
    expect((await lookup(body, await freshAnalyst())).status).toBe(200);

    vi.useFakeTimers({ toFake: ["Date"], now: Date.now() + 61_000 });
    expect((await lookup(body, cookie)).status).toBe(200);
    expect((await lookup(body, cookie)).status).toBe(200);
    vi.setSystemTime(Date.now() + 61_000);
    const day = await lookup(body, cookie);
    expect(day.status).toBe(429);
    expect(day.headers.get("x-ratelimit-scope")).toBe("day");
    expect((await json<ErrorBody>(day)).error.message).toMatch(/5 CPF lookups per day/);
  });

  it("keeps its counters in the database (shared by every instance)", async () => {
    const text = await h.allText();
    expect(text).toMatch(/rate_limits: .*lookup:cpf:minute:/);
    expect(text).toMatch(/rate_limits: .*lookup:cpf:day:/);
  });
});

describe("audit trail", () => {
  it("records every lookup with purpose and outcome, the CPF masked and hashed, never in clear", async () => {
    const text = await h.allText();
    const events = text.split("\n").filter((line) => line.startsWith("audit_events:") && line.includes('"action":"lookup.cpf_'));
    expect(events.length).toBeGreaterThan(5);
    const ordinary = events.find((line) => line.includes('"target":"***.982.247-**"') && line.includes('"purpose":"Onboarding check"'));
    expect(ordinary).toMatch(/"target_hash":"[0-9a-f]{64}"/);
    expect(ordinary).toContain('"outcome":"success"');
    expect(events.some((line) => line.includes('"outcome":"denied"') && line.includes("limit_per_minute"))).toBe(true);
    expect(events.some((line) => /"pep": ?true/.test(line))).toBe(true);
    for (const cpf of ["52998224725", "529.982.247-25", "11144477735", "39053344705"]) expect(text).not.toContain(cpf);
    // Nor the integration token used on these calls.
    expect(text).not.toContain("0b9a4c1e-5d2f-4e8a-9c71-3f6d2b8e4a10");
  });
});
