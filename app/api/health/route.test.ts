import fs from "node:fs";
import os from "node:os";
import path from "node:path";

import { PGlite } from "@electric-sql/pglite";
import { NextRequest } from "next/server";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";

import { createDatabase, type DatabaseHandle } from "@/lib/db/client";
import { restoreConfigEnv, stubConfigEnv } from "@/test/config";
import { setProcessDatabase } from "@/test/db";
import { startSandbox, type SandboxHandle } from "@/test/sandbox";

let sandbox: SandboxHandle;
let database: DatabaseHandle;
const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "kyc-health-"));

beforeAll(async () => {
  sandbox = await startSandbox();
  stubConfigEnv({ SANDBOX_URL: sandbox.url, DATA_DIR: dataDir });
  database = await createDatabase({ pglite: new PGlite() });
  setProcessDatabase(database);
});

afterAll(async () => {
  setProcessDatabase(undefined);
  await database.close();
  await sandbox.stop();
  restoreConfigEnv();
  fs.rmSync(dataDir, { recursive: true, force: true });
});

describe("GET /api/health", () => {
  it("answers liveness without touching anything", async () => {
    const { GET } = await import("./route");
    const response = await GET(new NextRequest("http://localhost/api/health"));
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ status: "ok" });
    expect(response.headers.get("cache-control")).toBe("no-store");
  });

  it("reports readiness of the database and both upstreams, and unreadiness when an upstream is gone", async () => {
    const { GET } = await import("./route");
    const ready = await GET(new NextRequest("http://localhost/api/health?ready"));
    const body = (await ready.json()) as { status: string; checks: Record<string, { ok: boolean }> };
    expect(ready.status).toBe(200);
    expect(body.status).toBe("ready");
    expect(Object.keys(body.checks).sort()).toEqual(["core", "database", "partners"]);
    expect(JSON.stringify(body)).not.toContain(sandbox.url);

    await sandbox.stop();
    // The cached answer lives 5 s; move past it.
    vi.useFakeTimers({ now: Date.now() + 6000, toFake: ["Date"] });
    const notReady = await GET(new NextRequest("http://localhost/api/health?ready"));
    vi.useRealTimers();
    const after = (await notReady.json()) as { status: string; checks: Record<string, { ok: boolean; problem?: string }> };
    expect(notReady.status).toBe(503);
    expect(after.checks.core).toMatchObject({ ok: false, problem: "unreachable" });
    expect(after.checks.database?.ok).toBe(true);
  });
});
