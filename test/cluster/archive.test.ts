import { spawn, spawnSync, type ChildProcess } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";

import { afterAll, afterEach, describe, expect, it } from "vitest";

import { blankAppEnv } from "@/scripts/app-env.mjs";
import { DEMO, signIn } from "@/scripts/bench-system";
import { freePort, unpackArchive, waitFor } from "@/scripts/cluster-system";

import { figure, ON_PGLITE, theArchive, writeFigures } from "./support";

/*
 * The deployable archive (issue 36, item 5) on its own: unpacked into an empty folder under the system's temporary
 * folder, with no source tree above it and no NODE_PATH, `node start.mjs` must find everything it loads in the archive.
 * On the embedded database (PGlite, WebAssembly kept out of the bundle and shipped as a package); cluster.test.ts runs
 * it on PostgreSQL.
 */

afterAll(() => writeFigures());

const METRICS_TOKEN = "archive-test-metrics-token-0123456789abcdef";

// What each test started and unpacked, stopped and removed after it whatever it asserted.
const servers = new Set<ChildProcess>();
const folders = new Set<string>();
afterEach(() => {
  for (const server of servers) if (server.exitCode === null && server.signalCode === null) server.kill("SIGKILL");
  for (const folder of folders) fs.rmSync(folder, { recursive: true, force: true });
  servers.clear();
  folders.clear();
});

/** The archive unpacked into a new folder and started with node alone, its output read or not; ready to answer. */
async function startRelease(output: "ignore" | "pipe") {
  const folder = fs.mkdtempSync(path.join(os.tmpdir(), "kyc-release-"));
  folders.add(folder);
  const release = unpackArchive(theArchive(), folder);
  const port = await freePort();
  const base = `http://localhost:${port}`;
  // No source tree above it, no NODE_PATH: only what the archive holds can be loaded.
  const env: NodeJS.ProcessEnv = {
    NODE_ENV: "production",
    PATH: process.env.PATH,
    HOME: folder,
    ...blankAppEnv(),
    PORT: String(port),
    NEXTAUTH_URL: base,
    SANDBOX_URL: "http://127.0.0.1:9",
    METRICS_TOKEN,
  };
  const started = Date.now();
  const server = spawn(process.execPath, ["--max-old-space-size=192", "start.mjs"], {
    cwd: release,
    env,
    stdio: ["ignore", output, output],
  });
  servers.add(server);
  const exited = new Promise<number | null>((resolve) => server.once("exit", (code) => resolve(code)));
  const health = await waitFor(
    "the release to open its embedded database",
    async () => {
      const answer = (await (await fetch(`${base}/api/health?ready`)).json()) as { checks?: Record<string, { ok: boolean }> };
      return answer.checks?.database?.ok && answer.checks.migrations?.ok ? answer : undefined;
    },
    120_000,
  );
  return { release, base, env, server, exited, health, startSeconds: (Date.now() - started) / 1000 };
}

describe("the archive, unpacked into an empty folder", () => {
  it("runs with node alone on the embedded database: migrations applied, demo accounts seeded, a graceful stop, its tools", async () => {
    const { release, base, env, server, exited, health, startSeconds } = await startRelease("ignore");
    expect(fs.existsSync(path.join(release, "lib", "db", "migrations", "meta", "_journal.json"))).toBe(true);
    expect(health.checks?.database?.ok).toBe(true);
    // The demo accounts were seeded (embedded default): signing in works.
    await signIn(base, DEMO.admin);
    expect(fs.existsSync(path.join(release, ".data", "pglite"))).toBe(true);
    server.kill("SIGTERM");
    expect(await exited).toBe(0);

    // The command-line tools ship bundled (bin/), and run on the database the server left (stopped: PGlite admits one process).
    const tool = (name: string, ...args: string[]) =>
      spawnSync(process.execPath, [path.join("bin", `${name}.mjs`), ...args], { cwd: release, env, encoding: "utf8" });
    const added = tool("user-add", "--email", "ops@example.com.br", "--role", "admin");
    expect(added.status, added.stderr).toBe(0);
    expect(added.stdout).toContain("one-time password");
    const verified = tool("audit-verify");
    expect(verified.status, verified.stderr).toBe(0);
    expect(verified.stdout).toMatch(/^head: \d+:[0-9a-f]{64}$/m);
    figure(ON_PGLITE, "archive: size", fs.statSync(theArchive()).size / 1024 / 1024, "MiB");
    figure(ON_PGLITE, "archive: start to ready on a new embedded database", startSeconds, "s");
  }, 180_000);

  it("goes on answering and stops gracefully once whatever read its output has gone", async () => {
    const { base, server, exited } = await startRelease("pipe");
    // The reader goes (a log collector that stopped, a closed pipe): the server's next write fails with EPIPE.
    server.stdout!.destroy();
    server.stderr!.destroy();
    // Each refused delivery writes a warning to stderr; the graceful stop writes its steps to stdout.
    const refusals = 3;
    for (let sent = 0; sent < refusals; sent += 1) {
      const refused = await fetch(`${base}/api/webhooks/verification-events`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: "{}",
        signal: AbortSignal.timeout(10_000),
      });
      expect(refused.status).toBe(401);
    }
    // Still answering (it used to spin at 100 % CPU and answer nothing: lib/runtime/output.ts), and counting what it dropped.
    const scrape = await fetch(`${base}/api/metrics`, {
      headers: { authorization: `Bearer ${METRICS_TOKEN}` },
      signal: AbortSignal.timeout(10_000),
    });
    expect(scrape.status).toBe(200);
    const dropped = Number(/^kyc_log_lines_dropped_total\{stream="stderr"\} (\d+)$/m.exec(await scrape.text())?.[1]);
    expect(dropped).toBeGreaterThanOrEqual(refusals);
    server.kill("SIGTERM");
    expect(await exited).toBe(0);
  }, 180_000);
});
