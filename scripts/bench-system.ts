// What the web benchmarks (bench-proxy.ts, bench-pages.ts) share: a running system, a signed-in
// session, sampling and statistics. Not a suite itself.
//
// The system is what `npm run demo --no-build` runs: the sandbox and `next start` on a production build
// of its own (BENCH_DIST_DIR, default .next-bench, built here when missing), a fresh data folder (so the
// embedded PGlite database starts empty and the demo accounts are seeded), on free ports (3300 and 4300
// unless taken). The run.mjs process group is stopped when the suite ends, fails, or the process exits.
import { spawn, type ChildProcess } from "node:child_process";
import fs from "node:fs";
import net from "node:net";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";

import { ensureProductionBuild } from "./production-build.mjs";

export const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const DIST_DIR = process.env.BENCH_DIST_DIR ?? ".next-bench";

export const DEMO = {
  admin: { email: "admin@sandbox.local", password: "sandbox-admin" },
  analyst: { email: "analyst@sandbox.local", password: "sandbox-analyst" },
} as const;

/** The sandbox's demo core API key, the one the dashboard itself uses in the embedded default. */
export const CORE_API_KEY = "sbx_core_view_media";

export function progress(suite: string, message: string): void {
  process.stderr.write(`[bench ${suite}] ${message}\n`);
}

// ---- statistics -------------------------------------------------------------------------------------

export interface Stats {
  median: number;
  p95: number;
  min: number;
  max: number;
  n: number;
}

/** Nearest-rank percentile of sorted values. */
function percentile(sorted: number[], fraction: number): number {
  const index = Math.min(sorted.length - 1, Math.max(0, Math.ceil(fraction * sorted.length) - 1));
  return sorted[index]!;
}

export function stats(values: number[]): Stats {
  if (values.length === 0) throw new Error("no samples");
  const sorted = [...values].sort((a, b) => a - b);
  const middle = sorted.length >> 1;
  const median = sorted.length % 2 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
  return { median, p95: percentile(sorted, 0.95), min: sorted[0]!, max: sorted[sorted.length - 1]!, n: sorted.length };
}

export async function timed(work: () => Promise<unknown>): Promise<number> {
  const start = performance.now();
  await work();
  return performance.now() - start;
}

/**
 * Runs each case `warmup` times (discarded), then `runs` times, the cases taking turns (A B A B …) so a
 * slow spell of the machine lands on every case alike rather than on whichever ran then.
 */
export async function sampleInTurns(
  cases: Array<() => Promise<unknown>>,
  { warmup, runs }: { warmup: number; runs: number },
): Promise<number[][]> {
  for (let round = 0; round < warmup; round += 1) for (const work of cases) await work();
  const samples = cases.map((): number[] => []);
  for (let round = 0; round < runs; round += 1) {
    for (const [index, work] of cases.entries()) samples[index]!.push(await timed(work));
  }
  return samples;
}

/** Fetches and reads the whole body; a non-2xx answer is an error (a benchmark of error pages is no benchmark). */
export async function fetchText(url: string, init: RequestInit = {}): Promise<string> {
  const response = await fetch(url, init);
  const body = await response.text();
  if (!response.ok) throw new Error(`${init.method ?? "GET"} ${url}: ${response.status} ${body.slice(0, 200)}`);
  return body;
}

// ---- the build ----------------------------------------------------------------------------------------

/** BENCH_DIST_DIR built when missing or stale (scripts/production-build.mjs), so a bench never measures stale code. */
function ensureBuild(suite: string): void {
  ensureProductionBuild({ distDir: DIST_DIR, log: (message) => progress(suite, message) });
}

// ---- the running system -------------------------------------------------------------------------------

function portIsFree(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const probe = net.createServer();
    probe.once("error", () => resolve(false));
    probe.listen({ port, host: "0.0.0.0", exclusive: true }, () => probe.close(() => resolve(true)));
  });
}

async function freePort(preferred: number, avoid: number[] = []): Promise<number> {
  for (let port = preferred; port < preferred + 50; port += 1) {
    if (!avoid.includes(port) && (await portIsFree(port))) return port;
  }
  throw new Error(`no free port in ${preferred}..${preferred + 49}`);
}

export interface System {
  /** The dashboard, e.g. http://localhost:3300. */
  base: string;
  /** The sandbox, e.g. http://127.0.0.1:4300. */
  sandbox: string;
  /** run.mjs's process id: the leader of the group holding the sandbox and the Next server. */
  pid: number;
  stop(): Promise<void>;
}

function signalGroup(child: ChildProcess, signal: NodeJS.Signals): void {
  if (child.pid === undefined || child.exitCode !== null || child.signalCode !== null) return;
  try {
    process.kill(-child.pid, signal);
  } catch {
    // The group is already gone.
  }
}

/** Starts the sandbox and the production server, waits until the dashboard answers its health check. */
export async function startSystem(suite: string, extraEnv: Record<string, string> = {}): Promise<System> {
  ensureBuild(suite);
  const port = await freePort(Number(process.env.BENCH_PORT ?? 3300));
  const sandboxPort = await freePort(Number(process.env.BENCH_SANDBOX_PORT ?? 4300), [port]);
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "kyc-bench-data-"));
  const base = `http://localhost:${port}`;
  const sandbox = `http://127.0.0.1:${sandboxPort}`;
  progress(suite, `starting the sandbox (${sandbox}) and next start (${base}) from ${DIST_DIR}…`);

  const child = spawn(process.execPath, [path.join(ROOT, "scripts", "run.mjs"), "demo", "--no-build"], {
    cwd: ROOT,
    // Its own process group, so stopping it stops the sandbox and next start with it.
    detached: true,
    stdio: ["ignore", "pipe", "pipe"],
    env: {
      ...process.env,
      NEXT_TELEMETRY_DISABLED: "1",
      PORT: String(port),
      SANDBOX_PORT: String(sandboxPort),
      DATA_DIR: dataDir,
      NEXT_DIST_DIR: DIST_DIR,
      ...extraEnv,
    },
  });
  // Kept for the error message if it does not come up; otherwise read and dropped (a full pipe would stall it).
  let tail = "";
  const keep = (chunk: Buffer) => {
    tail = (tail + chunk.toString()).slice(-4000);
  };
  child.stdout!.on("data", keep);
  child.stderr!.on("data", keep);
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));

  // Whatever happens to this process, the servers go with it.
  const onExit = () => signalGroup(child, "SIGKILL");
  const onSignal = (signal: NodeJS.Signals) => {
    signalGroup(child, "SIGKILL");
    process.exit(signal === "SIGINT" ? 130 : 143);
  };
  process.once("exit", onExit);
  process.once("SIGINT", onSignal);
  process.once("SIGTERM", onSignal);

  let stopped = false;
  const stop = async () => {
    if (stopped) return;
    stopped = true;
    signalGroup(child, "SIGTERM");
    const timer = new Promise<"timeout">((resolve) => setTimeout(() => resolve("timeout"), 5000).unref());
    if ((await Promise.race([exited, timer])) === "timeout") {
      signalGroup(child, "SIGKILL");
      await exited;
    }
    // run.mjs may be gone while a server it started still closes: make sure no one of the group is left.
    signalGroup(child, "SIGKILL");
    process.off("exit", onExit);
    process.off("SIGINT", onSignal);
    process.off("SIGTERM", onSignal);
    fs.rmSync(dataDir, { recursive: true, force: true });
  };

  try {
    const deadline = Date.now() + 120_000;
    let gone = false;
    void exited.then(() => (gone = true));
    for (;;) {
      if (gone) throw new Error(`run.mjs stopped before the dashboard was ready:\n${tail}`);
      if (Date.now() > deadline) throw new Error(`the dashboard did not answer ${base}/api/health within 120 s:\n${tail}`);
      const healthy = await fetch(`${base}/api/health`).then(
        (response) => response.ok,
        () => false,
      );
      if (healthy) break;
      await new Promise((resolve) => setTimeout(resolve, 250));
    }
  } catch (error) {
    await stop();
    throw error;
  }
  child.stdout!.off("data", keep);
  child.stderr!.off("data", keep);
  child.stdout!.resume();
  child.stderr!.resume();
  return { base, sandbox, stop, pid: child.pid! };
}

/** Starts the system, runs the suite, stops the system whether the suite succeeded or not. */
export async function withSystem<T>(
  suite: string,
  body: (system: System) => Promise<T>,
  extraEnv: Record<string, string> = {},
): Promise<T> {
  const system = await startSystem(suite, extraEnv);
  try {
    return await body(system);
  } finally {
    await system.stop();
  }
}

// ---- signing in ---------------------------------------------------------------------------------------

function cookiePairs(response: Response): string[] {
  return response.headers.getSetCookie().map((cookie) => cookie.split(";")[0]!);
}

/**
 * Signs in through next-auth's credentials endpoint (CSRF token, then the callback), the requests the
 * sign-in form makes. Returns the session cookie as `name=value`.
 */
export async function signIn(
  base: string,
  who: { email: string; password: string },
): Promise<{ name: string; value: string; header: string }> {
  const csrf = await fetch(`${base}/api/auth/csrf`);
  if (!csrf.ok) throw new Error(`GET /api/auth/csrf: ${csrf.status}`);
  const { csrfToken } = (await csrf.json()) as { csrfToken: string };
  const callback = await fetch(`${base}/api/auth/callback/credentials`, {
    method: "POST",
    redirect: "manual",
    headers: { "content-type": "application/x-www-form-urlencoded", cookie: cookiePairs(csrf).join("; ") },
    body: new URLSearchParams({ csrfToken, email: who.email, password: who.password, json: "true" }),
  });
  await callback.arrayBuffer();
  const session = cookiePairs(callback).find((pair) => pair.split("=")[0]!.includes("session-token"));
  if (callback.status >= 400 || !session)
    throw new Error(`signing in as ${who.email} failed (status ${callback.status}, no session cookie)`);
  const split = session.indexOf("=");
  return { name: session.slice(0, split), value: session.slice(split + 1), header: session };
}

/** A verification id from the dashboard's own list (so it is one the signed-in user can open). */
export async function someVerificationId(base: string, cookie: string): Promise<string> {
  const list = JSON.parse(await fetchText(`${base}/api/verifications?per_page=1`, { headers: { cookie } })) as {
    items?: Array<{ publicId?: string }>;
  };
  const id = list.items?.[0]?.publicId;
  if (!id) throw new Error("the verification list is empty: no detail to measure");
  return id;
}
