import { spawn, type ChildProcess } from "node:child_process";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";

import { afterAll, beforeAll, beforeEach } from "vitest";

import { setLogSink, type LogSink } from "@/lib/log";
import { lateBound } from "@/test/late-bound";

/*
 * Starts the sandbox as its own process on a random port, exactly as `npm run sandbox` does, so tests
 * talk to it over real HTTP. One sandbox per test file: control routes (clock, faults) stay local.
 */

export interface SandboxHandle {
  url: string;
  process: ChildProcess;
  /** The sandbox's console output so far (for asserting what it logged). */
  output(): string;
  requests(): Promise<Array<{ method: string; path: string; query: string[]; at: string }>>;
  clearRequests(): Promise<void>;
  advanceClock(seconds: number): Promise<void>;
  resetClock(): Promise<void>;
  setFaults(faults: Record<string, unknown>): Promise<void>;
  clearFaults(): Promise<void>;
  smsCode(phone: string): Promise<string | undefined>;
  stop(): Promise<void>;
}

const ROOT = path.resolve(__dirname, "..");

export async function startSandbox(env: Record<string, string> = {}): Promise<SandboxHandle> {
  const child = spawn(process.execPath, ["--import", "tsx", path.join(ROOT, "sandbox/server.ts")], {
    cwd: ROOT,
    // Its own data directory (id counters) unless the test shares one on purpose (a restart test).
    env: { ...process.env, SANDBOX_PORT: "0", SANDBOX_DATA_DIR: mkdtempSync(path.join(tmpdir(), "sandbox-")), ...env },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let output = "";
  child.stdout!.on("data", (chunk: Buffer) => (output += chunk.toString()));
  child.stderr!.on("data", (chunk: Buffer) => (output += chunk.toString()));

  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`sandbox did not start in 30 s:\n${output}`)), 30_000);
    const onData = () => {
      const match = /sandbox listening on (http:\/\/[\d.]+:\d+)/.exec(output);
      if (match) {
        clearTimeout(timer);
        resolve(match[1]!);
      }
    };
    child.stdout!.on("data", onData);
    child.once("exit", (code) => {
      clearTimeout(timer);
      reject(new Error(`sandbox exited with ${code}:\n${output}`));
    });
  });

  const control = async (method: string, route: string, body?: unknown) => {
    const response = await fetch(`${url}/sandbox${route}`, {
      method,
      headers: body === undefined ? {} : { "content-type": "application/json" },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    if (!response.ok) throw new Error(`sandbox control ${method} ${route}: ${response.status}`);
    return response.status === 204 ? undefined : response.json();
  };

  return {
    url,
    process: child,
    output: () => output,
    requests: async () => ((await control("GET", "/requests")) as { requests: never[] }).requests,
    clearRequests: async () => void (await control("DELETE", "/requests")),
    advanceClock: async (seconds) => void (await control("POST", "/clock", { advance_seconds: seconds })),
    resetClock: async () => void (await control("DELETE", "/clock")),
    setFaults: async (faults) => void (await control("POST", "/faults", faults)),
    clearFaults: async () => void (await control("DELETE", "/faults")),
    smsCode: async (phone) => {
      const response = await fetch(`${url}/sandbox/sms/outbox?phone=${encodeURIComponent(phone)}`);
      if (response.status === 404) return undefined;
      return ((await response.json()) as { code: string }).code;
    },
    stop: async () => {
      if (child.exitCode !== null) return;
      const exited = new Promise((resolve) => child.once("exit", resolve));
      child.kill("SIGTERM");
      await exited;
    },
  };
}

/**
 * The file's sandbox: started before its tests, with the log silenced meanwhile (or sent to `log`), and stopped after
 * them. Before each test it forgets the requests it saw and, as `clear` says, the faults a test set and the clock it
 * moved. The answer stands for the running sandbox (see lateBound).
 */
export function withSandbox({
  clear = "requests",
  log = () => undefined,
}: { clear?: "requests" | "faults and requests" | "faults, clock and requests"; log?: LogSink } = {}): SandboxHandle {
  let sandbox: SandboxHandle | undefined;
  beforeAll(async () => {
    setLogSink(log);
    sandbox = await startSandbox();
  });
  afterAll(async () => {
    setLogSink(undefined);
    await sandbox?.stop();
    sandbox = undefined;
  });
  beforeEach(async () => {
    if (clear !== "requests") await sandbox?.clearFaults();
    if (clear === "faults, clock and requests") await sandbox?.resetClock();
    await sandbox?.clearRequests();
  });
  return lateBound(() => sandbox, "the sandbox");
}
