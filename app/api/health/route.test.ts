import fs from "node:fs";
import os from "node:os";
import path from "node:path";

import { PGlite } from "@electric-sql/pglite";
import { sql } from "drizzle-orm";
import { NextRequest } from "next/server";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";

import { createDatabase, type DatabaseHandle } from "@/lib/db/client";
import { startDraining } from "@/lib/runtime/lifecycle";
import { restoreConfigEnv, stubConfigEnv } from "@/test/config";
import { setProcessDatabase } from "@/test/db";
import { resetLifecycle } from "@/test/lifecycle";
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
    // The release it runs: package.json's version and the commit built, fixed by next.config.mjs at build time.
    expect(await response.json()).toEqual({ status: "ok", version: expect.any(String), commit: expect.any(String) });
    expect(response.headers.get("cache-control")).toBe("no-store");
  });

  it("reports readiness of the database and both upstreams, and unreadiness when an upstream is gone", async () => {
    const { GET } = await import("./route");
    const ready = await GET(new NextRequest("http://localhost/api/health?ready"));
    const body = (await ready.json()) as { status: string; checks: Record<string, { ok: boolean }> };
    expect(ready.status).toBe(200);
    expect(body.status).toBe("ready");
    expect(Object.keys(body.checks).sort()).toEqual(["core", "database", "migrations", "partners"]);
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
    expect(after.checks.migrations?.ok).toBe(true);
  });

  it("says when the database lacks a migration this release ships", async () => {
    const { GET } = await import("./route");
    await database.db.execute(
      sql`delete from drizzle.__drizzle_migrations where created_at = (select max(created_at) from drizzle.__drizzle_migrations)`,
    );
    vi.useFakeTimers({ now: Date.now() + 12_000, toFake: ["Date"] });
    const answer = await GET(new NextRequest("http://localhost/api/health?ready"));
    vi.useRealTimers();
    const body = (await answer.json()) as { checks: Record<string, { ok: boolean; problem?: string }> };
    expect(answer.status).toBe(503);
    expect(body.checks.migrations).toMatchObject({ ok: false, problem: "behind" });
  });

  it("answers readiness 503 `draining` at once while the instance stops, and liveness still 200", async () => {
    const { GET } = await import("./route");
    await startDraining();
    try {
      const ready = await GET(new NextRequest("http://localhost/api/health?ready"));
      expect(ready.status).toBe(503);
      expect(await ready.json()).toMatchObject({ status: "draining" });
      expect((await GET(new NextRequest("http://localhost/api/health"))).status).toBe(200);
    } finally {
      resetLifecycle();
    }
  });
});
