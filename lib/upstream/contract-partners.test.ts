import { describe, expect, it } from "vitest";

import { SANDBOX_DEFAULTS } from "@/lib/config";
import {
  describeRedactionOverRealTraffic,
  OTHER_ACCOUNT_TOKEN,
  partners,
  received,
  sandbox,
  startContractSandbox,
  upstreamFailure,
} from "@/test/upstream-contract";

/*
 * Contract tests: the real clients against the real sandbox (its own process, real HTTP). The sandbox is a
 * second implementation of the contract; where these pass, the clients and the contract agree.
 */

const lines = startContractSandbox();

describe("partners", () => {
  it("logs in and creates an integration bound to the domain's host", async () => {
    const integration = await partners().createIntegration({ domain: "https://Shop.Example.com/checkout", label: "Shop" });
    expect(integration.domain).toBe("shop.example.com");
    expect(integration.label).toBe("Shop");
    expect(integration.uuid).toMatch(/^[0-9a-f-]{36}$/);
    const logins = (await received("/partners/auth/login")).filter((request) => request.method === "POST");
    expect(logins).toHaveLength(1);
  });

  it("reads CPF histories, with empty values as null and the PEP and death flags", async () => {
    const client = partners();
    const ordinary = await client.cpfHistory("529.982.247-25");
    expect(ordinary).toMatchObject({ cpf: "52998224725" });
    expect(ordinary.name).toBeTruthy();
    expect((await client.cpfHistory("390.533.447-05")).pep).toBe(true);
    expect((await client.cpfHistory("111.444.777-35")).deceased).toBe(true);
    const sparse = await client.cpfHistory("123.456.789-09");
    expect(
      Object.values(sparse).filter((value) => value === null).length + Object.values(sparse.names).filter((value) => value === null).length,
    ).toBeGreaterThan(0);
    // The token travels only as the query parameter the contract names.
    for (const request of await received("/partners/kyc/cpf-history")) expect(request.query.sort()).toEqual(["cpf", "token"]);
    expect((await received("/partners/auth/login")).length).toBe(1);
  });

  it("reads the federal revenue record, and the service echoes the Origin sent", async () => {
    const record = await partners().federalRevenueCpf("111.444.777-35");
    expect(record.cpf).toBe("11144477735");
    expect(record.deceased).toBe(true);
    expect(record.deathYear).toBeGreaterThan(1900);

    const form = new FormData();
    form.append("username", SANDBOX_DEFAULTS.partnersUsername);
    form.append("password", SANDBOX_DEFAULTS.partnersPassword);
    form.append("expiration", "600");
    const login = await fetch(`${sandbox().url}/partners/auth/login`, {
      method: "POST",
      body: form,
      headers: { Origin: SANDBOX_DEFAULTS.partnersDomain },
    });
    const { token } = (await login.json()) as { token: string };
    const query = new URLSearchParams({ token: SANDBOX_DEFAULTS.partnersIntegrationToken, cpf: "52998224725" });
    const raw = await fetch(`${sandbox().url}/partners/receita-federal/cpf?${query}`, {
      headers: { Authorization: `Bearer ${token}`, Origin: SANDBOX_DEFAULTS.partnersDomain },
    });
    expect(raw.status).toBe(200);
    expect(raw.headers.get("access-control-allow-origin")).toBe(SANDBOX_DEFAULTS.partnersDomain);
  });

  it("refuses another account's integration token used from our domain", async () => {
    const error = await upstreamFailure(partners({ integrationToken: OTHER_ACCOUNT_TOKEN }).cpfHistory("529.982.247-25"));
    expect(error.kind).toBe("forbidden");
  });

  it("starts a KYC session whose widget address holds the session id", async () => {
    const session = await partners().startKycSession({ cpf: "529.982.247-25", lang: "en" });
    expect(session.status).toBe("Iniciado");
    expect(session.validationStep).toBe(1);
    const url = new URL(session.url);
    expect(url.pathname.split("/").filter(Boolean).pop()).toBe(session.sessionId);
    expect(url.searchParams.get("lang")).toBe("en");
    expect(url.searchParams.get("token")).toBe(SANDBOX_DEFAULTS.partnersIntegrationToken);
    expect(session.client?.cpf).toBe("52998224725");
  });

  it("sends an SMS code and validates it; a wrong code is a validation error", async () => {
    const client = partners();
    const phone = "5511987650001";
    await expect(client.sendSmsCode({ phone, message: "Your verification code" })).resolves.toEqual({ sent: true });
    const code = await sandbox().smsCode(phone);
    expect(code).toMatch(/^\d{6}$/);
    const wrong = code === "000000" ? "111111" : "000000";
    const error = await upstreamFailure(client.validateSmsCode({ phone, code: wrong, message: "Your verification code" }));
    expect(error.kind).toBe("validation");
    expect(error.fields).toEqual(["code"]);
    await expect(client.validateSmsCode({ phone, code: code!, message: "Your verification code" })).resolves.toEqual({ valid: true });
    // Single use.
    expect((await upstreamFailure(client.validateSmsCode({ phone, code: code! }))).kind).toBe("validation");
    expect((await received("/partners/external/generate_jwt")).length).toBe(1);
  });

  it("logs in again transparently when the sandbox clock has expired the bearer token", async () => {
    const client = partners({ tokenTtlSeconds: 600 });
    await client.cpfHistory("529.982.247-25");
    await sandbox().advanceClock(3700);
    await expect(client.cpfHistory("529.982.247-25")).resolves.toMatchObject({ cpf: "52998224725" });
    expect((await received("/partners/auth/login")).length).toBe(2);
    expect((await received("/partners/kyc/cpf-history")).length).toBe(3); // ok, 401, retried ok
  });

  it("renews an expired SMS JWT the same way", async () => {
    const client = partners();
    await client.sendSmsCode({ phone: "5511987650002", message: "code" });
    await sandbox().advanceClock(3700);
    await client.sendSmsCode({ phone: "5511987650003", message: "code" });
    expect((await received("/partners/external/generate_jwt")).length).toBeGreaterThanOrEqual(2);
  });

  it("reports wrong credentials as unauthorized after a single login attempt", async () => {
    const error = await upstreamFailure(partners({ password: "not-the-password" }).cpfHistory("529.982.247-25"));
    expect(error.kind).toBe("unauthorized");
    expect((await received("/partners/auth/login")).length).toBe(1);
  });

  it("refuses a resend within 30 s as rate limited", async () => {
    const client = partners();
    await client.sendSmsCode({ phone: "5511987650004", message: "code" });
    const error = await upstreamFailure(client.sendSmsCode({ phone: "5511987650004", message: "code" }));
    expect(error.kind).toBe("rate_limited");
    expect((await received("/partners/sms/send-code")).length).toBe(2);
  });
});

describeRedactionOverRealTraffic(lines);
