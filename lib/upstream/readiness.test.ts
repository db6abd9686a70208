import fs from "node:fs";
import os from "node:os";
import path from "node:path";

import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";

import { config, SANDBOX_DEFAULTS } from "@/lib/config";
import { restoreConfigEnv, stubConfigEnv } from "@/test/config";
import { startSandbox, type SandboxHandle } from "@/test/sandbox";

import { probeUpstreams } from "./readiness";

/*
 * Readiness probes against a real sandbox with injected faults: a 5xx, a malformed answer, a refused key
 * and a hang are each "not ready" with their own reason, and no reason carries an address or a credential.
 */

let sandbox: SandboxHandle;
const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "kyc-readiness-"));

beforeAll(async () => {
  sandbox = await startSandbox();
  stubConfigEnv({ SANDBOX_URL: sandbox.url, DATA_DIR: dataDir });
});
afterAll(async () => {
  await sandbox?.stop();
  restoreConfigEnv();
  fs.rmSync(dataDir, { recursive: true, force: true });
});
beforeEach(async () => {
  await sandbox.clearFaults();
  await sandbox.clearRequests();
});

function expectNoSecretIn(value: unknown) {
  const text = JSON.stringify(value);
  for (const secret of [
    sandbox.url,
    "127.0.0.1",
    SANDBOX_DEFAULTS.coreApiKey,
    SANDBOX_DEFAULTS.partnersPassword,
    SANDBOX_DEFAULTS.partnersUsername,
  ])
    expect(text).not.toContain(secret);
}

describe("upstream readiness", () => {
  it("is ready when both answer a real read: the list with per_page=1 and a login", async () => {
    const result = await probeUpstreams();
    expect(result.core).toMatchObject({ ok: true });
    expect(result.partners).toMatchObject({ ok: true });
    const sent = await sandbox.requests();
    expect(sent.find((request) => request.path === "/core/public/validations-persons")?.query).toContain("per_page");
    expect(sent.some((request) => request.method === "POST" && request.path === "/partners/auth/login")).toBe(true);
  });

  it("reports a 5xx as unavailable, naming which upstream", async () => {
    await sandbox.setFaults({ path_prefix: "/core", error_rate: 1, status: 503 });
    const result = await probeUpstreams();
    expect(result.core).toMatchObject({ ok: false, problem: "unavailable" });
    expect(result.partners.ok).toBe(true);
    expectNoSecretIn(result);
  });

  it("reports a malformed answer as malformed", async () => {
    await sandbox.setFaults({ path_prefix: "/partners", malformed_rate: 1 });
    const result = await probeUpstreams();
    expect(result.partners).toMatchObject({ ok: false, problem: "malformed" });
    expect(result.core.ok).toBe(true);
    expectNoSecretIn(result);
  });

  it("reports a refused key or password as refused", async () => {
    const cfg = config();
    const result = await probeUpstreams({
      ...cfg,
      core: { ...cfg.core, apiKey: "sbx_wrong_key" },
      partners: { ...cfg.partners, password: "not-the-password" },
    });
    expect(result.core).toMatchObject({ ok: false, problem: "refused" });
    expect(result.partners).toMatchObject({ ok: false, problem: "refused" });
    expectNoSecretIn(result);
    expect(JSON.stringify(result)).not.toContain("not-the-password");
  });

  it("reports a hanging upstream as a timeout instead of waiting for it", async () => {
    await sandbox.setFaults({ path_prefix: "/core", timeout_rate: 1 });
    const result = await probeUpstreams();
    expect(result.core).toMatchObject({ ok: false, problem: "timeout" });
  });
});
