import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";

import { startSandbox, type SandboxHandle } from "../test/sandbox";
import { form, login, MAIN, OTHER } from "./test-support";

let sandbox: SandboxHandle;
let base: string;
let bearer: string;
const secrets: string[] = [];

beforeAll(async () => {
  sandbox = await startSandbox();
  base = sandbox.url;
  bearer = await login(base);
  secrets.push(bearer);
});

afterAll(async () => {
  await sandbox?.stop();
});

beforeEach(async () => {
  await sandbox.resetClock();
});

type Json = Record<string, unknown>;

const post = (path: string, body: BodyInit, headers: Record<string, string> = {}) =>
  fetch(`${base}/partners${path}`, { method: "POST", headers, body });

const lookup = (path: string, params: Record<string, string>, headers: Record<string, string>) =>
  fetch(`${base}/partners${path}?${new URLSearchParams(params)}`, { headers });

const authed = (token = bearer, origin = `https://${MAIN.domain}`) => ({ authorization: `Bearer ${token}`, origin });

describe("partners: login", () => {
  it("answers a HS256 JWT whose exp follows expiration", async () => {
    const response = await post("/auth/login", form({ username: MAIN.username, password: MAIN.password, expiration: "600" }), {
      origin: MAIN.domain,
    });
    expect(response.status).toBe(200);
    const body = (await response.json()) as { token: string; expires_in: number };
    expect(body.expires_in).toBe(600);
    secrets.push(body.token);
    const [head, claims] = body.token
      .split(".")
      .slice(0, 2)
      .map((part) => JSON.parse(Buffer.from(part, "base64url").toString("utf8")) as Json);
    expect(head).toMatchObject({ alg: "HS256", typ: "JWT" });
    expect((claims!.exp as number) - (claims!.iat as number)).toBe(600);
  });

  it("checks the credentials (401) and the domain header (403), whose host is what counts", async () => {
    const credentials = { username: MAIN.username, password: MAIN.password };
    expect((await post("/auth/login", form({ ...credentials, password: "wrong" }), { origin: MAIN.domain })).status).toBe(401);
    expect((await post("/auth/login", form({ ...credentials, username: "nobody" }), { origin: MAIN.domain })).status).toBe(401);
    expect((await post("/auth/login", form(credentials))).status).toBe(403);
    expect((await post("/auth/login", form(credentials), { origin: OTHER.domain })).status).toBe(403);
    const forbidden = (await (await post("/auth/login", form(credentials), { origin: "https://evil.example" })).json()) as Json;
    expect(forbidden.message).toEqual(expect.any(String));
    expect(forbidden.errors).toHaveProperty("domain");
    expect((await post("/auth/login", form(credentials), { origin: "https://BackOffice.Sandbox.Local:3000/app" })).status).toBe(200);
    const missing = await post("/auth/login", form({ username: MAIN.username }), { origin: MAIN.domain });
    expect(missing.status).toBe(422);
    expect(((await missing.json()) as { errors: Json }).errors).toHaveProperty("password");
    expect((await post("/auth/login", form({ ...credentials, expiration: "59" }), { origin: MAIN.domain })).status).toBe(422);
  });

  it("takes multipart/form-data only: JSON or urlencoded → 415", async () => {
    const fields = { username: MAIN.username, password: MAIN.password };
    const asJson = await post("/auth/login", JSON.stringify(fields), { origin: MAIN.domain, "content-type": "application/json" });
    expect(asJson.status).toBe(415);
    expect(((await asJson.json()) as Json).message).toEqual(expect.any(String));
    expect((await post("/auth/login", new URLSearchParams(fields), { origin: MAIN.domain })).status).toBe(415);
    const integration = await post("/integrations", JSON.stringify({ domain: "a.example", label: "x" }), {
      ...authed(),
      "content-type": "application/json",
    });
    expect(integration.status).toBe(415);
  });

  it("expires the bearer per the sandbox clock", async () => {
    const token = await login(base, { expiration: 60 });
    secrets.push(token);
    const params = { token: MAIN.token, cpf: "52998224725" };
    expect((await lookup("/kyc/cpf-history", params, authed(token))).status).toBe(200);
    await sandbox.advanceClock(61);
    const expired = await lookup("/kyc/cpf-history", params, authed(token));
    expect(expired.status).toBe(401);
    expect(await expired.json()).toEqual({ message: "Unauthenticated." });
  });

  it("refuses a missing or malformed bearer with 401 Unauthenticated.", async () => {
    const params = { token: MAIN.token, cpf: "52998224725" };
    const attempts: Record<string, string>[] = [
      { origin: MAIN.domain },
      { origin: MAIN.domain, authorization: "Bearer not.a.jwt" },
      { origin: MAIN.domain, authorization: bearer },
    ];
    for (const headers of attempts) {
      const response = await lookup("/kyc/cpf-history", params, headers);
      expect(response.status).toBe(401);
      expect(await response.json()).toEqual({ message: "Unauthenticated." });
    }
  });
});

describe("partners: integrations and lookups", () => {
  it("creates an integration for the host of the domain, whose uuid then works from that domain only", async () => {
    const response = await post("/integrations", form({ domain: "https://Example.com.br/path", label: "Loja" }), authed());
    expect(response.status).toBe(200);
    const body = (await response.json()) as { integration: Json; message: string; type: string };
    expect(body.message).toBe("Successfully Processed!");
    expect(body.type).toBe("insert");
    expect(body.integration).toMatchObject({ domain: "example.com.br", label: "Loja", tenant_id: 1, id_user: 1 });
    expect(body.integration.id).toEqual(expect.any(Number));
    expect(body.integration.created_at).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?([+-]\d{2}:\d{2})$/);
    const uuid = body.integration.uuid as string;
    expect(uuid).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/);
    secrets.push(uuid);

    const params = { token: uuid, cpf: "529.982.247-25" };
    expect((await lookup("/kyc/cpf-history", params, authed(bearer, "https://example.com.br"))).status).toBe(200);
    expect((await lookup("/receita-federal/cpf", params, authed(bearer, "https://EXAMPLE.com.br/page"))).status).toBe(200);
    expect((await lookup("/kyc/cpf-history", params, authed(bearer, `https://${MAIN.domain}`))).status).toBe(403);
    expect((await lookup("/receita-federal/cpf", params, authed(bearer, `https://${MAIN.domain}`))).status).toBe(403);
  });

  it("validates the creation form (422 with errors)", async () => {
    const response = await post("/integrations", form({ domain: "https://x.example" }), authed());
    expect(response.status).toBe(422);
    expect(((await response.json()) as { errors: Json }).errors).toHaveProperty("label");
    const bad = await post("/integrations", form({ domain: "not a domain", label: "x" }), authed());
    expect(bad.status).toBe(422);
    expect(((await bad.json()) as { errors: Json }).errors).toHaveProperty("domain");
    expect((await post("/integrations", form({ domain: "a.example", label: "x" }), { origin: MAIN.domain })).status).toBe(401);
  });

  it("refuses a foreign (401 unknown, 403 other account's) token and an invalid CPF (422)", async () => {
    const unknown = await lookup("/kyc/cpf-history", { token: "00000000-0000-4000-8000-000000000000", cpf: "52998224725" }, authed());
    expect(unknown.status).toBe(401);
    expect((await lookup("/kyc/cpf-history", { token: OTHER.token, cpf: "52998224725" }, authed())).status).toBe(403);
    expect((await lookup("/kyc/cpf-history", { token: OTHER.token, cpf: "52998224725" }, authed(bearer, OTHER.domain))).status).toBe(403);
    const otherBearer = await login(base, { account: OTHER });
    expect((await lookup("/kyc/cpf-history", { token: OTHER.token, cpf: "52998224725" }, authed(otherBearer, OTHER.domain))).status).toBe(
      200,
    );
    const invalid = await lookup("/kyc/cpf-history", { token: MAIN.token, cpf: "529.982.247-26" }, authed());
    expect(invalid.status).toBe(422);
    expect(((await invalid.json()) as { errors: Json }).errors).toHaveProperty("cpf");
    expect((await lookup("/kyc/cpf-history", { token: MAIN.token }, authed())).status).toBe(422);
  });

  it("answers the CPF history deterministically, with the seeded special people", async () => {
    const history = async (cpf: string) =>
      (
        (await (await lookup("/kyc/cpf-history", { token: MAIN.token, cpf }, authed())).json()) as {
          dados: Json & { outros_campos: Json & { nome: Json } };
        }
      ).dados;
    const ordinary = await history("529.982.247-25");
    expect(await history("52998224725")).toEqual(ordinary);
    expect(ordinary).toMatchObject({
      cpf: "52998224725",
      digito_verificador: "25",
      data_nascimento: expect.stringMatching(/^\d{4}-\d{2}-\d{2}$/),
    });
    expect(Number(ordinary.idade)).toBeGreaterThanOrEqual(18);
    const strings = (record: Json): unknown[] =>
      Object.values(record).flatMap((value) => (value && typeof value === "object" ? strings(value as Json) : [value]));
    expect(strings(ordinary)).not.toContain("");
    expect((await history("111.444.777-35")).outros_campos.obito).toBe(true);
    expect((await history("390.533.447-05")).outros_campos.pep).toBe(true);
    expect(ordinary.outros_campos.pep).toBe(false);
    expect(strings(await history("123.456.789-09")).filter((value) => value === "").length).toBeGreaterThanOrEqual(3);
    // Any valid CPF answers: an invented person.
    expect((await history("935.411.347-80")).nome).toEqual(expect.any(String));
  });

  it("answers the federal revenue record and echoes Origin in access-control-allow-origin", async () => {
    const origin = `https://${MAIN.domain}`;
    const response = await lookup("/receita-federal/cpf", { token: MAIN.token, cpf: "11144477735" }, authed(bearer, origin));
    expect(response.status).toBe(200);
    expect(response.headers.get("access-control-allow-origin")).toBe(origin);
    expect(response.headers.get("access-control-allow-credentials")).toBe("true");
    const { Result } = (await response.json()) as { Result: Json };
    expect(Result).toMatchObject({ NumeroCpf: "11144477735", ConstaObito: true, DigitoVerificador: "35" });
    expect(Result.AnoObito).toBeGreaterThan(1900);
    expect(Result.DataNascimento).toMatch(/^\d{4}-\d{2}-\d{2}T00:00:00Z$/);
    const ordinary = (await (
      await lookup("/receita-federal/cpf", { token: MAIN.token, cpf: "52998224725" }, authed(bearer, origin))
    ).json()) as { Result: Json };
    expect(ordinary.Result).toMatchObject({ ConstaObito: false, AnoObito: 0, SituacaoCadastral: "REGULAR" });
    expect(Object.values(ordinary.Result)).not.toContain(null);
  });
});

describe("partners: KYC session", () => {
  it("answers personId, the widget URL and vp; the widget page opens", async () => {
    const response = await post("/kyc/get-sdk-url", form({ cpf: "529.982.247-25", token: MAIN.token }), authed());
    expect(response.status).toBe(200);
    const body = (await response.json()) as { personId: number; url: string; vp: Json & { meta: Json } };
    expect(body.vp).toMatchObject({ id: body.personId, status: "Iniciado", validation_step: 1, cpf: "52998224725", tenant_id: 1 });
    expect(body.vp.meta.status).toBe("Iniciado");
    const sessionId = body.vp.session_id as string;
    expect(body.url).toBe(`${base}/widget/${sessionId}?token=${MAIN.token}&lang=pt-BR`);
    const page = await fetch(body.url);
    expect(page.status).toBe(200);
    expect(page.headers.get("content-type")).toMatch(/^text\/html/);
    const text = await page.text();
    expect(text).toContain("Capture widget (sandbox)");
    expect(text).toContain(sessionId);

    const english = (await (
      await post("/kyc/get-sdk-url", form({ cpf: "52998224725", token: MAIN.token, lang: "en" }), authed())
    ).json()) as { url: string };
    expect(new URL(english.url).searchParams.get("lang")).toBe("en");
    expect((await post("/kyc/get-sdk-url", form({ cpf: "52998224725", token: MAIN.token }), authed(bearer, OTHER.domain))).status).toBe(
      403,
    );
  });
});

describe("partners: SMS", () => {
  let smsJwt: string;
  // As the provider's reference shows validate-code: a Bearer JWT, the integration token in x-api-key, Origin.
  const smsHeaders = (jwt = smsJwt, token: string = MAIN.token) => ({
    authorization: `Bearer ${jwt}`,
    "x-api-key": token,
    origin: MAIN.domain,
  });
  /** validate-code: `phone` and `code` in the query, `phone` and `message` in the form (the reference). */
  const validate = (phone: string, code: string | null, headers: Record<string, string> = smsHeaders(), message = "x") =>
    post(`/sms/validate-code?${new URLSearchParams(code === null ? { phone } : { phone, code })}`, form({ phone, message }), headers);

  beforeAll(async () => {
    const response = await post("/external/generate_jwt", form({ token: MAIN.token }), authed());
    expect(response.status).toBe(200);
    smsJwt = ((await response.json()) as { token: string }).token;
    secrets.push(smsJwt);
  });

  it("sends a code (printed with the phone masked, readable in the outbox) and validates it once", async () => {
    const phone = "5511987654321";
    const sent = await post("/sms/send-code", form({ phone, message: "Seu código" }), smsHeaders());
    expect(sent.status).toBe(200);
    expect(await sent.json()).toEqual({ message: "Code sent." });
    const code = await sandbox.smsCode(phone);
    expect(code).toMatch(/^\d{6}$/);
    expect(sandbox.output()).toContain(`sms to +55******4321: code ${code}`);
    expect(sandbox.output()).not.toContain(phone);

    const wrong = await validate(phone, code === "000000" ? "000001" : "000000");
    expect(wrong.status).toBe(422);
    expect(await wrong.json()).toEqual({ message: "Invalid code.", errors: { code: ["Invalid code."] } });
    expect((await validate(phone, null)).status).toBe(422);
    // The code travels in the query: a code in the form only is no code.
    expect((await post("/sms/validate-code", form({ phone, code: code!, message: "x" }), smsHeaders())).status).toBe(422);

    const right = await validate(phone, code!);
    expect(right.status).toBe(200);
    expect(await right.json()).toEqual({ valid: true });
    expect((await validate(phone, code!)).status).toBe(422);
  });

  it("refuses a resend within 30 s (429), invalidates a code after 5 wrong attempts and after 10 minutes", async () => {
    const phone = "5521912345678";
    expect((await post("/sms/send-code", form({ phone, message: "x" }), smsHeaders())).status).toBe(200);
    expect((await post("/sms/send-code", form({ phone, message: "x" }), smsHeaders())).status).toBe(429);
    const code = (await sandbox.smsCode(phone))!;
    const wrong = code === "999999" ? "999998" : "999999";
    for (let i = 0; i < 5; i++) expect((await validate(phone, wrong)).status).toBe(422);
    expect((await validate(phone, code)).status).toBe(422);

    await sandbox.advanceClock(31);
    expect((await post("/sms/send-code", form({ phone, message: "x" }), smsHeaders())).status).toBe(200);
    const fresh = (await sandbox.smsCode(phone))!;
    await sandbox.advanceClock(601);
    const renewed = ((await (await post("/external/generate_jwt", form({ token: MAIN.token }), authed())).json()) as { token: string })
      .token;
    secrets.push(renewed);
    const late = await validate(phone, fresh, smsHeaders(renewed));
    expect(late.status).toBe(422);
    expect(await late.json()).toEqual({ message: "Invalid code.", errors: { code: ["Invalid code."] } });
  });

  it("needs the SMS JWT, the integration token it was made for and that integration's domain", async () => {
    const phone = "5531999990000";
    const fields = () => form({ phone, message: "x" });
    expect((await post("/sms/send-code", fields(), { "x-api-key": MAIN.token, origin: MAIN.domain })).status).toBe(401);
    expect((await post("/sms/send-code", fields(), { ...smsHeaders(), "x-api-key": "" })).status).toBe(401); // no integration token
    expect((await post("/sms/send-code", fields(), smsHeaders(bearer))).status).toBe(401); // a login token is not an SMS JWT
    expect((await lookup("/kyc/cpf-history", { token: MAIN.token, cpf: "52998224725" }, authed(smsJwt))).status).toBe(401); // nor the reverse
    expect((await post("/sms/send-code", fields(), smsHeaders(smsJwt, OTHER.token))).status).toBe(403);
    expect((await post("/sms/send-code", fields(), { ...smsHeaders(), origin: OTHER.domain })).status).toBe(403);
    expect((await validate(phone, "123456", { ...smsHeaders(), origin: OTHER.domain })).status).toBe(403);
    expect((await post("/sms/send-code", form({ phone: "11999990000", message: "x" }), smsHeaders())).status).toBe(422);
    expect((await post("/sms/send-code", JSON.stringify({ phone }), { ...smsHeaders(), "content-type": "application/json" })).status).toBe(
      415,
    );
    await sandbox.advanceClock(601);
    expect((await post("/sms/send-code", fields(), smsHeaders())).status).toBe(401); // the JWT lives 10 minutes
  });
});

describe("partners: console", () => {
  it("never printed a token, password or key", () => {
    const output = sandbox.output();
    expect(secrets.length).toBeGreaterThanOrEqual(4);
    for (const secret of [...secrets, MAIN.password, OTHER.password, MAIN.token, "eyJ"]) expect(output).not.toContain(secret);
  });
});
