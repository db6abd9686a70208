import type { ServerResponse } from "node:http";

import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { ZodError } from "zod";

import { setLogSink } from "@/lib/log";
import { UpstreamError, UpstreamUnauthorizedError } from "@/lib/upstream/errors";
import { PartnersClient } from "@/lib/upstream/partners";
import type { PartnersClientOptions } from "@/lib/upstream/partners-session";
import { fakeJwt, sendJson, startFakeServer, type FakeRequest, type FakeServer } from "@/test/fake-upstream";

/*
 * The partners client against a local fake partners API: token caching and sharing, re-login on 401,
 * renewal before expiry, SMS headers, no retried writes, redaction.
 */

const PASSWORD = "fake-partner-password";
const INTEGRATION_TOKEN = "0b9a4c1e-5d2f-4e8a-9c71-3f6d2b8e4a10";
const CPF = "52998224725";

const dados = {
  cpf: CPF,
  nome: "Maria Silva",
  nome_mae: "",
  data_nascimento: "1980-02-03",
  data_inscricao_antes_1990: true,
  outros_campos: { pep: false, obito: false, nome: { primeiroNome: "Maria", sobrenome: "Silva", nomeDoMeio: "", nomeSocial: "" } },
};

interface FakePartners {
  server: FakeServer;
  logins: number;
  /** Tokens the fake accepts; clearing it makes every current token stale. */
  valid: Set<string>;
  /** When set, the fake answers every non-login call with this status. */
  failWith?: number;
  /** Claims of issued login tokens, seconds; `opaque` issues a non-JWT token. */
  tokenShape: "jwt" | "opaque";
  loginField: "token" | "access_token" | "accessToken";
  issuedAt: () => number;
  lastForm?: FormData;
}

let fake: FakePartners;
let lines: string[];

async function startFakePartners(): Promise<FakePartners> {
  const state = {
    logins: 0,
    valid: new Set<string>(),
    tokenShape: "jwt",
    loginField: "token",
    issuedAt: () => Math.floor(Date.now() / 1000),
  } as Omit<FakePartners, "server">;

  const handler = async (req: FakeRequest, res: ServerResponse) => {
    if (req.path === "/auth/login") {
      state.logins++;
      const form = await req.form();
      state.lastForm = form;
      if (form.get("password") !== PASSWORD) return sendJson(res, 401, { message: "Invalid credentials." });
      const iat = state.issuedAt();
      const ttl = Number(form.get("expiration"));
      const token =
        state.tokenShape === "jwt" ? fakeJwt({ sub: "backoffice", iat, exp: iat + ttl, n: state.logins }) : `opaque-${state.logins}-token`;
      state.valid.add(token);
      return sendJson(res, 200, { [state.loginField]: token });
    }
    const bearer = req.headers.authorization?.replace(/^Bearer /, "") ?? "";
    if (req.path === "/external/generate_jwt") {
      if (!state.valid.has(bearer)) return sendJson(res, 401, { message: "Unauthenticated." });
      const iat = Math.floor(Date.now() / 1000);
      const jwt = fakeJwt({ purpose: "sms", iat, exp: iat + 600 });
      state.valid.add(jwt);
      return sendJson(res, 200, { token: jwt });
    }
    if (state.failWith) return sendJson(res, state.failWith, { message: "failure" });
    if (!state.valid.has(bearer)) return sendJson(res, 401, { message: "Unauthenticated." });
    if (req.path === "/kyc/cpf-history") return sendJson(res, 200, { dados });
    if (req.path === "/sms/send-code") return sendJson(res, 200, { message: "Code sent." });
    if (req.path === "/sms/validate-code") {
      // The reference: `code` is a query parameter.
      return req.query.get("code") === "123456"
        ? sendJson(res, 200, { valid: true })
        : sendJson(res, 422, { message: "Invalid code.", errors: { code: ["Invalid code."] } });
    }
    return sendJson(res, 404, { message: "Not found." });
  };
  const server = await startFakeServer(handler);
  return Object.assign(state, { server }) as FakePartners;
}

function client(options: Partial<PartnersClientOptions> = {}) {
  return new PartnersClient({
    baseUrl: fake.server.url,
    username: "backoffice",
    password: PASSWORD,
    domain: "backoffice.sandbox.local",
    integrationToken: INTEGRATION_TOKEN,
    tokenTtlSeconds: 3600,
    retryBaseDelayMs: 1,
    ...options,
  });
}

beforeEach(async () => {
  lines = [];
  setLogSink((_level, line) => lines.push(line));
  fake = await startFakePartners();
});

afterEach(async () => {
  setLogSink(undefined);
  await fake.server.close();
});

describe("login", () => {
  it("logs in with a multipart form and the domain header", async () => {
    await client({ domainHeader: "X-Client-Domain" }).cpfHistory(CPF);
    const login = fake.server.requests.find((request) => request.path === "/auth/login")!;
    expect(login.method).toBe("POST");
    expect(login.headers["content-type"]).toMatch(/^multipart\/form-data; boundary=/);
    expect(login.headers["x-client-domain"]).toBe("backoffice.sandbox.local");
    expect(Object.fromEntries(fake.lastForm!)).toEqual({ username: "backoffice", password: PASSWORD, expiration: "3600" });
    const history = fake.server.requests.find((request) => request.path === "/kyc/cpf-history")!;
    expect(history.headers["x-client-domain"]).toBe("backoffice.sandbox.local");
    expect(Object.fromEntries(history.query)).toEqual({ token: INTEGRATION_TOKEN, cpf: CPF });
  });

  it("shares one login among 50 concurrent calls", async () => {
    const partners = client();
    const results = await Promise.all(Array.from({ length: 50 }, () => partners.cpfHistory(CPF)));
    expect(results).toHaveLength(50);
    expect(results[0]!.name).toBe("Maria Silva");
    expect(fake.logins).toBe(1);
    expect(fake.server.count("/kyc/cpf-history")).toBe(50);
  });

  it("reuses the cached token across calls", async () => {
    const partners = client();
    await partners.cpfHistory(CPF);
    await partners.cpfHistory(CPF);
    expect(fake.logins).toBe(1);
  });

  it("reads the token from access_token or accessToken too", async () => {
    for (const field of ["access_token", "accessToken"] as const) {
      fake.loginField = field;
      await expect(client().cpfHistory(CPF)).resolves.toMatchObject({ cpf: CPF });
    }
  });

  it("reports refused credentials as unauthorized without retrying the login", async () => {
    const error = await client({ password: "wrong-password" })
      .cpfHistory(CPF)
      .catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(UpstreamUnauthorizedError);
    expect(fake.logins).toBe(1);
    expect(fake.server.count("/kyc/cpf-history")).toBe(0);
  });
});

describe("stale tokens", () => {
  it("logs in again once on a 401 and repeats the call once", async () => {
    const partners = client();
    await partners.cpfHistory(CPF);
    fake.valid.clear(); // the service forgot every token (restart, revocation)
    await expect(partners.cpfHistory(CPF)).resolves.toMatchObject({ cpf: CPF });
    expect(fake.logins).toBe(2);
    expect(fake.server.count("/kyc/cpf-history")).toBe(3);
  });

  it("shares the re-login among concurrent callers hit by the same 401", async () => {
    const partners = client();
    await partners.cpfHistory(CPF);
    fake.valid.clear();
    await Promise.all(Array.from({ length: 20 }, () => partners.cpfHistory(CPF)));
    expect(fake.logins).toBe(2);
  });

  it("throws unauthorized on a second 401, without looping", async () => {
    fake.failWith = 401;
    const error = await client()
      .cpfHistory(CPF)
      .catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(UpstreamUnauthorizedError);
    expect((error as UpstreamError).upstream).toBe("partners");
    expect(fake.logins).toBe(2);
    expect(fake.server.count("/kyc/cpf-history")).toBe(2);
  });

  it("renews a JWT shortly before its exp, without waiting for a 401", async () => {
    let now = Date.now();
    fake.issuedAt = () => Math.floor(now / 1000);
    const partners = client({ now: () => now, tokenTtlSeconds: 600 });
    await partners.cpfHistory(CPF);
    now += 500_000; // 100 s left of 600: still used
    await partners.cpfHistory(CPF);
    expect(fake.logins).toBe(1);
    now += 50_000; // 50 s left: inside the one-minute margin, renewed before use
    await partners.cpfHistory(CPF);
    expect(fake.logins).toBe(2);
    expect(fake.server.requests.filter((request) => request.path === "/kyc/cpf-history")).toHaveLength(3);
  });

  it("uses the requested lifetime for an opaque token", async () => {
    fake.tokenShape = "opaque";
    let now = Date.now();
    const partners = client({ now: () => now, tokenTtlSeconds: 1000 });
    await partners.cpfHistory(CPF);
    now += 930_000;
    await partners.cpfHistory(CPF);
    expect(fake.logins).toBe(1);
    now += 20_000; // 50 s left of 1000: renewed
    await partners.cpfHistory(CPF);
    expect(fake.logins).toBe(2);
  });
});

describe("writes", () => {
  it("never retries a POST on 503", async () => {
    fake.failWith = 503;
    const error = await client({ readRetries: 3 })
      .sendSmsCode({ phone: "5511987654321", message: "Your code" })
      .catch((caught: unknown) => caught);
    expect((error as UpstreamError).kind).toBe("unavailable");
    expect(fake.server.count("/sms/send-code")).toBe(1);
  });

  it("retries a GET on 503 (reads are idempotent)", async () => {
    fake.failWith = 503;
    const partners = client({ readRetries: 2 });
    await partners.cpfHistory(CPF).catch(() => undefined);
    expect(fake.server.count("/kyc/cpf-history")).toBe(3);
  });

  it("sends SMS calls as the provider's reference shows: Bearer JWT, x-api-key, Origin, phone and code in the query", async () => {
    const partners = client();
    await partners.sendSmsCode({ phone: "+55 11 98765-4321", message: "Your code" });
    await expect(partners.validateSmsCode({ phone: "5511987654321", code: " 123 456 " })).resolves.toEqual({ valid: true });
    const jwtRequests = fake.server.requests.filter((request) => request.path === "/external/generate_jwt");
    expect(jwtRequests).toHaveLength(1); // cached between the two calls
    expect(Object.fromEntries(await jwtRequests[0]!.form())).toEqual({ token: INTEGRATION_TOKEN });
    const send = fake.server.requests.find((request) => request.path === "/sms/send-code")!;
    const check = fake.server.requests.find((request) => request.path === "/sms/validate-code")!;
    for (const request of [send, check]) {
      expect(request.headers["content-type"]).toMatch(/^multipart\/form-data/);
      expect(request.headers["x-api-key"]).toBe(INTEGRATION_TOKEN);
      expect(request.headers["x-integration-token"]).toBeUndefined();
      expect(request.headers.origin).toBe("backoffice.sandbox.local");
      const smsJwt = request.headers.authorization!.replace("Bearer ", "");
      expect(JSON.parse(Buffer.from(smsJwt.split(".")[1]!, "base64url").toString())).toMatchObject({ purpose: "sms" });
    }
    expect(Object.fromEntries(send.query)).toEqual({ phone: "5511987654321" });
    expect(Object.fromEntries(await send.form())).toEqual({ phone: "5511987654321", message: "Your code" });
    expect(Object.fromEntries(check.query)).toEqual({ phone: "5511987654321", code: "123456" });
    expect(Object.fromEntries(await check.form())).toEqual({ phone: "5511987654321" });
  });

  it("sends the domain in Origin on SMS calls even when the domain header has another name", async () => {
    const partners = client({ domainHeader: "X-Client-Domain", smsTokenHeader: "X-Integration-Token" });
    await partners.sendSmsCode({ phone: "5511987654321" });
    const send = fake.server.requests.find((request) => request.path === "/sms/send-code")!;
    expect(send.headers.origin).toBe("backoffice.sandbox.local");
    expect(send.headers["x-client-domain"]).toBe("backoffice.sandbox.local");
    expect(send.headers["x-integration-token"]).toBe(INTEGRATION_TOKEN);
    expect(send.headers["x-api-key"]).toBeUndefined();
  });

  it("reports a wrong SMS code as a validation error naming the code", async () => {
    const error = await client()
      .validateSmsCode({ phone: "5511987654321", code: "000000" })
      .catch((caught: unknown) => caught);
    expect((error as UpstreamError).kind).toBe("validation");
    expect((error as UpstreamError).fields).toEqual(["code"]);
  });
});

describe("input", () => {
  it("refuses a bad CPF or phone before any request, naming the field", async () => {
    const partners = client();
    const cpfError = await partners.cpfHistory("123.456.789-00").catch((caught: unknown) => caught);
    expect(cpfError).toBeInstanceOf(ZodError);
    expect((cpfError as ZodError).issues[0]!.path).toEqual(["cpf"]);
    const phoneError = await partners.sendSmsCode({ phone: "12" }).catch((caught: unknown) => caught);
    expect((phoneError as ZodError).issues[0]!.path).toEqual(["phone"]);
    // The one SMS code rule of lib/shared/phone-rules.ts: 4 to 10 letters or digits.
    for (const code of ["123", "12345678901", "12-34"]) {
      const codeError = await partners.validateSmsCode({ phone: "5511987654321", code }).catch((caught: unknown) => caught);
      expect((codeError as ZodError).issues[0]!.path).toEqual(["code"]);
    }
    expect(fake.server.requests).toHaveLength(0);
  });
});

describe("redaction", () => {
  it("keeps the password, tokens and integration token out of logs and errors", async () => {
    const partners = client();
    await partners.cpfHistory(CPF);
    await partners.sendSmsCode({ phone: "5511987654321", message: "m" });
    fake.failWith = 401;
    const error = (await partners.cpfHistory(CPF).catch((caught: unknown) => caught)) as Error;
    const tokens = [...fake.valid];
    const everything = [error.message, ...lines].join("\n");
    for (const secret of [PASSWORD, INTEGRATION_TOKEN, CPF, ...tokens]) expect(everything).not.toContain(secret);
    expect(lines.length).toBeGreaterThan(3);
  });
});
