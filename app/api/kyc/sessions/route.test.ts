import { describe, expect, it, vi } from "vitest";

import { SANDBOX_DEFAULTS } from "@/lib/config";
import type { KycSessionResponse } from "@/lib/kyc/types";
import { createTestStaff, sessionCookieFor } from "@/test/auth";
import { json, withPartnersHarness } from "@/test/partners-ops";

import { POST } from "./route";

/*
 * Starting a KYC session through the route handler, against a real sandbox: a purpose required like a lookup's,
 * the widget address (path holding the session id, the dedicated widget `token` and `lang`, lang from the
 * dashboard's language), a QR code, the session id and status and nothing of the person (the service's `vp`
 * record stays on the server), the member's KYC start quota, and the address and its token stored nowhere
 * (database, audit trail, logs).
 */

const h = withPartnersHarness({ KYC_START_LIMIT_PER_MINUTE: "2", KYC_START_LIMIT_PER_DAY: "3" });
const URL = "http://localhost:3000/api/kyc/sessions";

/** A member of the test's own: KYC starts count against each member's quota (2 a minute in this harness). */
async function ownMember(): Promise<string> {
  return sessionCookieFor(h.db.db, await createTestStaff(h.db.db, { role: "analyst" }));
}

async function start(
  cpf: string,
  { language, languageCookie, purpose = "Onboarding of a customer" }: { language?: string; languageCookie?: string; purpose?: string } = {},
  session = h.analystCookie,
) {
  const cookie = [session, languageCookie].filter(Boolean).join("; ") || undefined;
  const headers: Record<string, string> = language ? { "accept-language": language } : {};
  const body = purpose === "" ? { cpf } : { cpf, purpose };
  return POST(h.request(URL, { method: "POST", cookie, body, headers }));
}

describe("starting a KYC session", () => {
  it("refuses a bad CPF before any call, naming the field; refuses anonymous callers", async () => {
    const response = await start("390.533.447-04");
    expect(response.status).toBe(400);
    expect((await json<{ error: { fields: string[] } }>(response)).error.fields).toEqual(["cpf"]);
    expect((await start("529.982.247-25", {}, "")).status).toBe(401);
    expect(await h.sandbox.requests()).toEqual([]);
  });

  it("asks for a purpose like a lookup, naming the field, before any call", async () => {
    for (const purpose of ["", "ab", "check 529.982.247-25 please"]) {
      const response = await start("529.982.247-25", { purpose }, await ownMember());
      expect(response.status).toBe(400);
      expect((await json<{ error: { fields: string[] } }>(response)).error.fields).toEqual(["purpose"]);
    }
    expect(await h.sandbox.requests()).toEqual([]);
  });

  it("answers the widget address (path = session id, widget token and lang), session id, status and a QR code: nothing of the person", async () => {
    const response = await start("529.982.247-25", { language: "pt-BR,pt;q=0.9" }, await ownMember());
    expect(response.status).toBe(201);
    expect(response.headers.get("cache-control")).toBe("no-store");
    const text = await response.clone().text();
    const { session, qrCode } = await json<KycSessionResponse>(response);
    const address = new globalThis.URL(session.url);
    expect(address.pathname.split("/").pop()).toBe(session.sessionId);
    // The dedicated widget token, never the lookup token.
    expect(address.searchParams.get("token")).toBe(SANDBOX_DEFAULTS.partnersWidgetIntegrationToken);
    expect(address.searchParams.get("lang")).toBe("pt-BR");
    expect(Object.keys(session).sort()).toEqual(["sessionId", "status", "url"]);
    expect(session.status).toBe("Iniciado");
    // The sandbox's vp record holds the person's name, mother's name and birth date: none of it is sent.
    expect(text).not.toMatch(/"client"|"name"|mother|birth|"cpf"|52998224725/i);
    expect(qrCode).toMatch(/^data:image\/svg\+xml;base64,/);
    expect(Buffer.from(qrCode.split(",")[1]!, "base64").toString("utf8")).toContain("<svg");
    expect((await h.sandbox.requests()).map((request) => request.path)).toContain("/partners/kyc/get-sdk-url");
  });

  it("follows the dashboard's language: the language cookie wins over Accept-Language", async () => {
    const response = await start("390.533.447-05", { language: "pt-BR", languageCookie: "NEXT_LOCALE=en" }, await ownMember());
    const { session } = await json<KycSessionResponse>(response);
    expect(new globalThis.URL(session.url).searchParams.get("lang")).toBe("en");
  });

  it("stores neither the address, the session id nor the token: only an audit event with the CPF masked", async () => {
    const sessions: KycSessionResponse[] = [];
    const member = await ownMember();
    for (const [cpf, options] of [
      ["529.982.247-25", { language: "pt-BR" }],
      ["390.533.447-05", { languageCookie: "NEXT_LOCALE=en" }],
    ] as const) {
      const response = await start(cpf, options, member);
      expect(response.status).toBe(201);
      sessions.push(await json<KycSessionResponse>(response));
    }
    const text = await h.allText();
    const logs = h.logLines.join("\n");
    const events = text.split("\n").filter((line) => line.includes('"action":"kyc.session_start"'));
    expect(events.some((line) => line.includes('"target":"***.982.247-**"') && line.includes('"outcome":"success"'))).toBe(true);
    // The purpose is on the trail, with the intent and the outcome.
    expect(events.filter((line) => line.includes('"purpose":"Onboarding of a customer"')).length).toBeGreaterThanOrEqual(4);
    for (const { session } of sessions) {
      const token = new globalThis.URL(session.url).searchParams.get("token")!;
      for (const secret of [session.url, session.sessionId, token]) {
        expect(text).not.toContain(secret);
        expect(logs).not.toContain(secret);
      }
    }
    expect(text).not.toContain(SANDBOX_DEFAULTS.partnersIntegrationToken);
    expect(text).not.toContain("52998224725");
  });

  it("counts KYC starts per member, per minute then per day: 429 with Retry-After, audited as denied, before any call", async () => {
    const member = await createTestStaff(h.db.db, { role: "analyst" });
    const cookie = await sessionCookieFor(h.db.db, member);
    const minuteStart = new Date(Math.ceil(Date.now() / 60_000) * 60_000 + 1_000);
    vi.useFakeTimers({ toFake: ["Date"], now: minuteStart });
    try {
      expect((await start("529.982.247-25", {}, cookie)).status).toBe(201);
      expect((await start("529.982.247-25", {}, cookie)).status).toBe(201);
      await h.sandbox.clearRequests();
      const minute = await start("529.982.247-25", {}, cookie);
      expect(minute.status).toBe(429);
      expect(minute.headers.get("x-ratelimit-quota")).toBe("kyc_start");
      expect(minute.headers.get("x-ratelimit-scope")).toBe("minute");
      expect(Number(minute.headers.get("retry-after"))).toBe(59);
      expect(await h.sandbox.requests()).toEqual([]);
      vi.setSystemTime(minuteStart.getTime() + 60_000);
      expect((await start("529.982.247-25", {}, cookie)).status).toBe(201);
      vi.setSystemTime(minuteStart.getTime() + 120_000);
      const day = await start("529.982.247-25", {}, cookie);
      expect(day.status).toBe(429);
      expect(day.headers.get("x-ratelimit-scope")).toBe("day");
      expect((await json<{ error: { message: string } }>(day)).error.message).toMatch(/3 KYC sessions started per day/);
    } finally {
      vi.useRealTimers();
    }
    const denied = (await h.allText())
      .split("\n")
      .filter((line) => line.includes('"action":"kyc.session_start"') && line.includes(member.id) && line.includes('"outcome":"denied"'));
    expect(denied.map((line) => /limit_per_(minute|day)/.exec(line)?.[0])).toEqual(["limit_per_minute", "limit_per_day"]);
  });
});
