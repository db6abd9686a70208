import { afterAll, beforeAll, describe, expect, it } from "vitest";

import { startSandbox, type SandboxHandle } from "../test/sandbox";
import { core } from "./test-support";

/*
 * A rotation's grace (api/autenticacao.mdx at 40274c2): the provider keeps the old key working through the grace it
 * was given, then refuses it; the control route stands for the provider's console. Time moves on the sandbox clock.
 */

let sandbox: SandboxHandle;
const OLD = "lz_sbxmain1_Hq7pW2xLr9TfK4cVn8Zs";
const NEW = "lz_sbxmain2_Jd3mY6bQe1RuG5hXk0Pa";

beforeAll(async () => {
  sandbox = await startSandbox();
});
afterAll(async () => {
  await sandbox?.stop();
});

const grace = (publicPart: string, seconds: unknown) =>
  fetch(`${sandbox.url}/sandbox/keys/${publicPart}/grace`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ seconds }),
  });
const list = (key: string) => core(sandbox.url, "/public/validations-persons?per_page=1", key);

describe("a key's grace after a rotation", () => {
  it("keeps the old key working through its grace, then refuses it while the new one works; lifting it restores it", async () => {
    expect((await grace("lz_sbxmain1", 3600)).status).toBe(200);
    expect((await list(OLD)).status).toBe(200);
    await sandbox.advanceClock(3601);
    const refused = await list(OLD);
    expect(refused.status).toBe(401);
    expect(((await refused.json()) as { error: { code: string } }).error.code).toBe("E_UNAUTHORIZED");
    expect((await list(NEW)).status).toBe(200);
    expect((await grace("lz_sbxmain1", null)).status).toBe(200);
    expect((await list(OLD)).status).toBe(200);
    await sandbox.resetClock();
  });

  it("a grace of 0 revokes the key at once", async () => {
    expect((await grace("lz_sbxmain2", 0)).status).toBe(200);
    expect((await list(NEW)).status).toBe(401);
    expect((await grace("lz_sbxmain2", null)).status).toBe(200);
  });

  it("refuses a grace past 7 days or not a whole number, and a public part no key has", async () => {
    expect((await grace("lz_sbxmain1", 7 * 86_400 + 1)).status).toBe(400);
    expect((await grace("lz_sbxmain1", 1.5)).status).toBe(400);
    expect((await grace("lz_nosuchkey", 60)).status).toBe(404);
    expect((await grace("sbx_core_view", 60)).status).toBe(404);
    expect((await list(OLD)).status).toBe(200);
  });
});
