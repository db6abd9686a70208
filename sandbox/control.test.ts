import { connect } from "node:net";
import { networkInterfaces } from "node:os";

import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";

import { startSandbox, type SandboxHandle } from "../test/sandbox";
import { core, MAIN } from "./test-support";

let sandbox: SandboxHandle;
let base: string;

beforeAll(async () => {
  sandbox = await startSandbox();
  base = sandbox.url;
});

afterAll(async () => {
  await sandbox?.stop();
});

beforeEach(async () => {
  await sandbox.clearFaults();
  await sandbox.clearRequests();
});

describe("control routes", () => {
  it("health", async () => {
    const response = await fetch(`${base}/sandbox/health`);
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ ok: true });
  });

  it("logs method, path, query keys and time: never query values, bodies or header values", async () => {
    await core(base, "/public/validations-persons?status=approved&per_page=3", "sbx_core_view", {
      headers: { "x-trace": "header-value-1" },
    });
    await fetch(`${base}/partners/auth/login`, {
      method: "POST",
      body: new URLSearchParams({ username: "body-value-2", password: "body-value-3" }),
    });
    await fetch(`${base}/sandbox/health`);
    const requests = await sandbox.requests();
    expect(requests.map((r) => [r.method, r.path])).toEqual([
      ["GET", "/core/public/validations-persons"],
      ["POST", "/partners/auth/login"],
    ]);
    expect(requests[0]!.query).toEqual(["status", "per_page"]);
    expect(Date.parse(requests[0]!.at)).not.toBeNaN();
    const logged = JSON.stringify(requests);
    for (const value of ["approved", "sbx_core_view", "header-value-1", "body-value-2", "body-value-3"])
      expect(logged).not.toContain(value);
    await sandbox.clearRequests();
    expect(await sandbox.requests()).toEqual([]);
  });

  it("answers only what came after a reader's cursor, and a cleared log does not move the cursor back", async () => {
    const start = (await (await fetch(`${base}/sandbox/requests?after=0`)).json()) as { last: number };
    await core(base, "/public/validations-persons?per_page=1", "sbx_core_view");
    await core(base, "/public/validations-persons?per_page=2", "sbx_core_view");
    const read = async (after: number) =>
      (await (await fetch(`${base}/sandbox/requests?after=${after}`)).json()) as {
        requests: Array<{ seq: number; path: string }>;
        last: number;
        truncated: boolean;
      };
    const both = await read(start.last);
    expect(both.requests.map((request) => request.seq)).toEqual([start.last + 1, start.last + 2]);
    expect(both).toMatchObject({ last: start.last + 2, truncated: false });
    expect((await read(start.last + 1)).requests.map((request) => request.seq)).toEqual([start.last + 2]);
    expect(await read(both.last)).toEqual({ requests: [], last: both.last, truncated: false });

    // Another reader clears the log: this reader's cursor still reads on, and says what it can no longer see.
    await sandbox.clearRequests();
    await core(base, "/public/validations-persons?per_page=3", "sbx_core_view");
    expect(await read(both.last)).toMatchObject({ requests: [{ seq: both.last + 1 }], last: both.last + 1, truncated: false });
    expect(await read(start.last)).toMatchObject({ requests: [{ seq: both.last + 1 }], truncated: true });
    expect((await fetch(`${base}/sandbox/requests?after=-1`)).status).toBe(400);
  });

  it("moves the clock forward and back", async () => {
    const before = (await (await fetch(`${base}/sandbox/clock`)).json()) as { offset_seconds: number };
    expect(before.offset_seconds).toBe(0);
    await sandbox.advanceClock(120);
    const after = (await (await fetch(`${base}/sandbox/clock`)).json()) as { now: string; offset_seconds: number };
    expect(after.offset_seconds).toBe(120);
    expect(Date.parse(after.now) - Date.now()).toBeGreaterThan(115_000);
    await sandbox.resetClock();
    expect(((await (await fetch(`${base}/sandbox/clock`)).json()) as { offset_seconds: number }).offset_seconds).toBe(0);
    expect(
      (
        await fetch(`${base}/sandbox/clock`, {
          method: "POST",
          headers: { "content-type": "application/json" },
          body: '{"advance_seconds":"x"}',
        })
      ).status,
    ).toBe(400);
  });

  it("moves a verification created through the API back in time, its expiry unchanged; generated ones keep their dates", async () => {
    const created = await core(base, "/public/verifications", "sbx_core_view", {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({
        schema_version: "1.0",
        ref_id: `backdate-${Date.now()}`,
        document: { type: "cpf", number: "529.982.247-25" },
      }),
    });
    expect(created.status).toBe(201);
    const { verification } = (await created.json()) as { verification: { public_id: string; created_at: string; expires_at: string } };
    const backdate = (publicId: string, createdAt: string) =>
      fetch(`${base}/sandbox/verifications/${publicId}/created-at`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ created_at: createdAt }),
      });
    const tenDaysAgo = new Date(Date.parse(verification.created_at) - 10 * 86_400_000).toISOString();
    expect(await (await backdate(verification.public_id, tenDaysAgo)).json()).toEqual({
      public_id: verification.public_id,
      created_at: tenDaysAgo,
    });
    const read = (await (await core(base, `/public/validations-persons/${verification.public_id}`, "sbx_core_view")).json()) as {
      created_at: string;
      expires_at: string;
    };
    expect(read).toMatchObject({ created_at: tenDaysAgo, expires_at: verification.expires_at });

    expect((await backdate(verification.public_id, new Date(Date.now() + 86_400_000).toISOString())).status).toBe(400);
    expect((await backdate("0b9a4c1e-5d2f-4e8a-9c71-3f6d2b8e4a10", tenDaysAgo)).status).toBe(404);
    const generated = (
      (await (await core(base, "/public/validations-persons?per_page=5", "sbx_core_view")).json()) as {
        data: Array<{ public_id: string }>;
      }
    ).data.find((item) => item.public_id !== verification.public_id);
    expect((await backdate(generated!.public_id, tenDaysAgo)).status).toBe(409);
  });

  it("answers 404 JSON on unknown routes and 405 on a wrong method", async () => {
    const missing = await fetch(`${base}/nowhere`);
    expect(missing.status).toBe(404);
    expect(missing.headers.get("content-type")).toMatch(/^application\/json/);
    const partners = await fetch(`${base}/partners/nowhere`);
    expect(partners.status).toBe(404);
    expect(((await partners.json()) as { message: string }).message).toEqual(expect.any(String));
    const wrong = await fetch(`${base}/partners/auth/login`);
    expect(wrong.status).toBe(405);
  });

  it("serves a plain page at widget addresses", async () => {
    const page = await fetch(`${base}/widget/8a4f8a2e-1c1b-4d7e-9c5e-2b0a7b8e9f10`);
    expect(page.headers.get("content-type")).toMatch(/^text\/html/);
    const text = await page.text();
    expect(text).toContain("Capture widget (sandbox)");
    expect(text).toContain("8a4f8a2e-1c1b-4d7e-9c5e-2b0a7b8e9f10");
  });
});

describe("faults", () => {
  it("error_rate 1 answers the configured status on the prefix only, in the family's error shape", async () => {
    await sandbox.setFaults({ path_prefix: "/core", error_rate: 1, status: 503 });
    const response = await core(base, "/public/validations-persons", "sbx_core_view");
    expect(response.status).toBe(503);
    expect(((await response.json()) as { error: { code: string } }).error.code).toBe("E_SERVICE_UNAVAILABLE");
    expect((await fetch(`${base}/sandbox/health`)).status).toBe(200);
    expect((await fetch(`${base}/widget/abc`)).status).toBe(404); // not under /core: unaffected
    await sandbox.clearFaults();
    expect((await core(base, "/public/validations-persons", "sbx_core_view")).status).toBe(200);
  });

  it("malformed_rate 1 sends truncated, unparsable JSON", async () => {
    await sandbox.setFaults({ path_prefix: "/core", malformed_rate: 1 });
    const response = await core(base, "/public/validations-persons?per_page=3", "sbx_core_view");
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toMatch(/^application\/json/);
    const body = await response.text();
    expect(body.length).toBeGreaterThan(0);
    expect(() => JSON.parse(body)).toThrow();
  });

  it("latency_ms delays the answer", async () => {
    await sandbox.setFaults({ path_prefix: "/partners", latency_ms: 300 });
    const started = performance.now();
    const response = await fetch(`${base}/partners/nowhere`);
    expect(response.status).toBe(404);
    expect(performance.now() - started).toBeGreaterThanOrEqual(290);
  });

  it("timeout_rate 1 holds the request without answering", async () => {
    await sandbox.setFaults({ path_prefix: "/core", timeout_rate: 1 });
    const outcome = await fetch(`${base}/core/public/validations-persons`, {
      headers: { "x-api-key": "sbx_core_view" },
      signal: AbortSignal.timeout(400),
    }).then(
      (response) => `answered ${response.status}`,
      (error: Error) => error.name,
    );
    expect(outcome).toBe("TimeoutError");
    expect((await fetch(`${base}/partners/nowhere`)).status).toBe(404); // other prefixes still answer
  });

  it("refuses invalid fault settings", async () => {
    for (const body of [{ error_rate: 2 }, { path_prefix: "/sandbox" }, { status: 200 }, { colour: "red" }]) {
      const response = await fetch(`${base}/sandbox/faults`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify(body),
      });
      expect(response.status, JSON.stringify(body)).toBe(400);
    }
  });
});

describe("process", () => {
  it("takes faults from the environment, and shuts down promptly on SIGTERM while a request is held", async () => {
    const faulty = await startSandbox({ SANDBOX_TIMEOUT_RATE: "1", SANDBOX_VERIFICATIONS: "10" });
    const held = fetch(`${faulty.url}/core/public/validations-persons`, { headers: { "x-api-key": "sbx_core_view" } }).then(
      () => "answered",
      () => "connection closed",
    );
    expect((await fetch(`${faulty.url}/sandbox/health`)).status).toBe(200); // control routes are never faulted
    await new Promise((resolve) => setTimeout(resolve, 100));
    const stopped = await Promise.race([
      faulty.stop().then(() => "stopped"),
      new Promise((resolve) => setTimeout(() => resolve("still running"), 5000)),
    ]);
    expect(stopped).toBe("stopped");
    expect(await held).toBe("connection closed");
    expect(faulty.process.exitCode).toBe(0);
  });

  it("error rate from the environment", async () => {
    const faulty = await startSandbox({ SANDBOX_ERROR_RATE: "1", SANDBOX_VERIFICATIONS: "10" });
    try {
      const login = await fetch(`${faulty.url}/partners/auth/login`, {
        method: "POST",
        headers: { origin: MAIN.domain },
        body: new FormData(),
      });
      expect(login.status).toBe(503);
      expect(await login.json()).toEqual({ message: "Injected fault (sandbox)." });
    } finally {
      await faulty.stop();
    }
  });

  it("honours custom names: page parameter, domain header and SMS headers (the SMS domain stays in Origin)", async () => {
    const custom = await startSandbox({
      SANDBOX_VERIFICATIONS: "30",
      SANDBOX_PAGE_PARAM: "pagina",
      SANDBOX_DOMAIN_HEADER: "X-Client-Domain",
      SANDBOX_SMS_JWT_HEADER: "X-Sms-Jwt",
      SANDBOX_SMS_TOKEN_HEADER: "X-Sms-Token",
    });
    try {
      const paged = await core(custom.url, "/public/validations-persons?per_page=10&pagina=3", "sbx_core_view");
      expect(((await paged.json()) as { pagination: unknown }).pagination).toEqual({ page: 3, per_page: 10, total: 30 });
      const refused = await core(custom.url, "/public/validations-persons?page=2", "sbx_core_view");
      expect(refused.status).toBe(400);

      const fields = () => {
        const data = new FormData();
        data.set("username", MAIN.username);
        data.set("password", MAIN.password);
        return data;
      };
      expect(
        (await fetch(`${custom.url}/partners/auth/login`, { method: "POST", headers: { origin: MAIN.domain }, body: fields() })).status,
      ).toBe(403);
      const login = await fetch(`${custom.url}/partners/auth/login`, {
        method: "POST",
        headers: { "x-client-domain": MAIN.domain },
        body: fields(),
      });
      expect(login.status).toBe(200);
      const { token } = (await login.json()) as { token: string };
      const query = `token=${MAIN.token}&cpf=52998224725`;
      // The federal revenue lookup always reads Origin; the CPF history reads the configured header.
      expect(
        (
          await fetch(`${custom.url}/partners/receita-federal/cpf?${query}`, {
            headers: { authorization: `Bearer ${token}`, origin: MAIN.domain },
          })
        ).status,
      ).toBe(200);
      expect(
        (
          await fetch(`${custom.url}/partners/kyc/cpf-history?${query}`, {
            headers: { authorization: `Bearer ${token}`, origin: MAIN.domain },
          })
        ).status,
      ).toBe(403);
      expect(
        (
          await fetch(`${custom.url}/partners/kyc/cpf-history?${query}`, {
            headers: { authorization: `Bearer ${token}`, "x-client-domain": MAIN.domain },
          })
        ).status,
      ).toBe(200);

      const jwtForm = new FormData();
      jwtForm.set("token", MAIN.token);
      const jwt = (await (
        await fetch(`${custom.url}/partners/external/generate_jwt`, {
          method: "POST",
          headers: { authorization: `Bearer ${token}`, "x-client-domain": MAIN.domain },
          body: jwtForm,
        })
      ).json()) as { token: string };
      const sms = new FormData();
      sms.set("phone", "5511900001111");
      const sendCode = (headers: Record<string, string>) =>
        fetch(`${custom.url}/partners/sms/send-code`, {
          method: "POST",
          headers: { "x-sms-jwt": jwt.token, "x-sms-token": MAIN.token, ...headers },
          body: sms,
        });
      // The SMS routes read the domain from Origin, as the provider's reference shows them, whatever SANDBOX_DOMAIN_HEADER says.
      expect((await sendCode({ "x-client-domain": MAIN.domain })).status).toBe(403);
      const sent = await sendCode({ origin: MAIN.domain });
      expect(sent.status).toBe(200);
      expect(await custom.smsCode("5511900001111")).toMatch(/^\d{6}$/);
    } finally {
      await custom.stop();
    }
  });

  it("refuses a bad setting at start", async () => {
    await expect(startSandbox({ SANDBOX_VERIFICATIONS: "lots" })).rejects.toThrow(/SANDBOX_VERIFICATIONS/);
    await expect(startSandbox({ SANDBOX_HOST: "http://0.0.0.0" })).rejects.toThrow(/SANDBOX_HOST/);
    await expect(startSandbox({ SANDBOX_WEBHOOK_DELIVERY_HEADER: "maybe" })).rejects.toThrow(/SANDBOX_WEBHOOK_DELIVERY_HEADER/);
  });

  // Another address of this machine than 127.0.0.1: a non-loopback interface, else (Linux) 127.0.0.2.
  const elsewhere =
    Object.values(networkInterfaces())
      .flat()
      .find((entry) => entry && entry.family === "IPv4" && !entry.internal)?.address ??
    (process.platform === "linux" ? "127.0.0.2" : undefined);

  it.skipIf(!elsewhere)("listens on 127.0.0.1 only by default; SANDBOX_HOST=0.0.0.0 opens every interface", async () => {
    const port = Number(new URL(base).port);
    expect(new URL(base).hostname).toBe("127.0.0.1");
    expect(await connects(elsewhere!, port)).toBe(false);

    const open = await startSandbox({ SANDBOX_HOST: "0.0.0.0" });
    try {
      // Addresses it hands out stay reachable from this machine.
      expect(new URL(open.url).hostname).toBe("127.0.0.1");
      expect(await connects(elsewhere!, Number(new URL(open.url).port))).toBe(true);
    } finally {
      await open.stop();
    }
  });
});

/** Whether a TCP connection to host:port is accepted (within 2 s). */
function connects(host: string, port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect({ host, port, timeout: 2_000 });
    const done = (result: boolean) => {
      socket.destroy();
      resolve(result);
    };
    socket.once("connect", () => done(true));
    socket.once("error", () => done(false));
    socket.once("timeout", () => done(false));
  });
}
