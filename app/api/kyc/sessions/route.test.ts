import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";

import { SANDBOX_DEFAULTS } from "@/lib/config";
import type { KycSessionResponse } from "@/lib/partners-ops/types";
import { json, startPartnersHarness, type PartnersHarness } from "@/test/partners-ops";

import { POST } from "./route";

/*
 * Starting a KYC session through the route handler, against a real sandbox: the widget address (path
 * holding the session id, `token` and `lang` parameters, lang from the dashboard's language), the `vp`
 * record, a QR code, and the address and its token stored nowhere (database, audit trail, logs).
 */

let h: PartnersHarness;
const URL = "http://localhost:3000/api/kyc/sessions";

beforeAll(async () => {
  h = await startPartnersHarness();
});
afterAll(async () => {
  await h?.dispose();
});
beforeEach(async () => {
  await h.sandbox.clearRequests();
});

async function start(
  cpf: string,
  { language, languageCookie }: { language?: string; languageCookie?: string } = {},
  session = h.analystCookie,
) {
  const cookie = [session, languageCookie].filter(Boolean).join("; ") || undefined;
  const headers: Record<string, string> = language ? { "accept-language": language } : {};
  return POST(h.request(URL, { method: "POST", cookie, body: { cpf }, headers }));
}

describe("starting a KYC session", () => {
  it("refuses a bad CPF before any call, naming the field; refuses anonymous callers", async () => {
    const response = await start("390.533.447-04");
    expect(response.status).toBe(400);
    expect((await json<{ error: { fields: string[] } }>(response)).error.fields).toEqual(["cpf"]);
    expect((await start("529.982.247-25", {}, "")).status).toBe(401);
    expect(await h.sandbox.requests()).toEqual([]);
  });

  it("answers the widget address (path = session id, token and lang), the vp record and a QR code", async () => {
    const response = await start("529.982.247-25", { language: "pt-BR,pt;q=0.9" });
    expect(response.status).toBe(201);
    expect(response.headers.get("cache-control")).toBe("no-store");
    const { session, qrCode } = await json<KycSessionResponse>(response);
    const address = new globalThis.URL(session.url);
    expect(address.pathname.split("/").pop()).toBe(session.sessionId);
    expect(address.searchParams.get("token")).toBeTruthy();
    expect(address.searchParams.get("lang")).toBe("pt-BR");
    expect(session).toMatchObject({ status: "Iniciado", validationStep: 1, cpf: "52998224725" });
    expect(session.personId).toBeGreaterThan(0);
    expect(session.client?.name).toBeTruthy();
    expect(qrCode).toMatch(/^data:image\/svg\+xml;base64,/);
    expect(Buffer.from(qrCode.split(",")[1]!, "base64").toString("utf8")).toContain("<svg");
    expect((await h.sandbox.requests()).map((request) => request.path)).toContain("/partners/kyc/get-sdk-url");
  });

  it("follows the dashboard's language: the language cookie wins over Accept-Language", async () => {
    const response = await start("390.533.447-05", { language: "pt-BR", languageCookie: "NEXT_LOCALE=en" });
    const { session } = await json<KycSessionResponse>(response);
    expect(new globalThis.URL(session.url).searchParams.get("lang")).toBe("en");
  });

  it("stores neither the address, the session id nor the token: only an audit event with the CPF masked", async () => {
    const sessions: KycSessionResponse[] = [];
    for (const [cpf, options] of [
      ["529.982.247-25", { language: "pt-BR" }],
      ["390.533.447-05", { languageCookie: "NEXT_LOCALE=en" }],
    ] as const) {
      const response = await start(cpf, options);
      expect(response.status).toBe(201);
      sessions.push(await json<KycSessionResponse>(response));
    }
    const text = await h.allText();
    const logs = h.logLines.join("\n");
    const events = text.split("\n").filter((line) => line.includes('"action":"kyc.session_start"'));
    expect(events.some((line) => line.includes('"target":"***.982.247-**"') && line.includes('"outcome":"success"'))).toBe(true);
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
});
