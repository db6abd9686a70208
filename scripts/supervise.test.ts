import { spawn, type ChildProcess } from "node:child_process";
import { EventEmitter } from "node:events";

import { afterEach, describe, expect, it } from "vitest";

import { createSupervisor, type SupervisedChild } from "./supervise.mjs";

/*
 * `npm run dev` / `npm run demo` (scripts/run.mjs) run the sandbox and the dashboard under this supervisor: one that
 * dies (the dashboard's out-of-memory abort) is started again while the other keeps running, and the log says so.
 */

class FakeChild extends EventEmitter implements SupervisedChild {
  exitCode: number | null = null;
  die(code: number | null, signal: string | null = null) {
    this.exitCode = code ?? 1;
    this.emit("exit", code, signal);
  }
}

/** A supervisor whose timers the test runs by hand, and the children each name started, in order. */
function harness(options: { maxRestarts?: number } = {}) {
  const lines: string[] = [];
  const timers: { run: () => void; ms: number; cancelled: boolean }[] = [];
  const started = new Map<string, FakeChild[]>();
  let clock = 0;
  let allStopped = 0;
  const supervisor = createSupervisor({
    log: (line) => lines.push(line),
    delayMs: 1000,
    windowMs: 60_000,
    maxRestarts: options.maxRestarts ?? 3,
    now: () => clock,
    schedule: (run, ms) => {
      const timer = { run, ms, cancelled: false };
      timers.push(timer);
      return timer;
    },
    cancel: (timer) => void ((timer as { cancelled: boolean }).cancelled = true),
    onAllStopped: () => (allStopped += 1),
  });
  const add = (name: string) =>
    supervisor.add(name, () => {
      const child = new FakeChild();
      started.set(name, [...(started.get(name) ?? []), child]);
      return child;
    });
  const runTimers = () => {
    for (const timer of timers.splice(0)) if (!timer.cancelled) timer.run();
  };
  return {
    supervisor,
    lines,
    timers,
    started,
    add,
    runTimers,
    tick: (ms: number) => (clock += ms),
    allStopped: () => allStopped,
    latest: (name: string) => started.get(name)!.at(-1)!,
  };
}

describe("the dev and demo supervisor", () => {
  it("starts a crashed dashboard again and leaves the sandbox running, saying so", () => {
    const h = harness();
    h.add("sandbox");
    h.add("dashboard");
    const sandbox = h.latest("sandbox");
    h.latest("dashboard").die(null, "SIGABRT");
    expect(h.lines).toEqual(["[dashboard] exited (signal SIGABRT); starting it again in 1 s; sandbox keeps running"]);
    expect(sandbox.exitCode).toBeNull();
    expect(h.supervisor.children()).toEqual([sandbox]);
    h.runTimers();
    expect(h.started.get("dashboard")).toHaveLength(2);
    expect(h.supervisor.children()).toEqual([sandbox, h.latest("dashboard")]);
  });

  it("and the reverse: a crashed sandbox is started again while the dashboard keeps running", () => {
    const h = harness();
    h.add("sandbox");
    h.add("dashboard");
    const dashboard = h.latest("dashboard");
    h.latest("sandbox").die(1);
    expect(h.lines).toEqual(["[sandbox] exited (code 1); starting it again in 1 s; dashboard keeps running"]);
    h.runTimers();
    expect(h.started.get("sandbox")).toHaveLength(2);
    expect(h.started.get("dashboard")).toEqual([dashboard]);
  });

  it("waits longer after each crash in the window, and gives up on one that keeps dying while the other runs", () => {
    const h = harness({ maxRestarts: 2 });
    h.add("sandbox");
    h.add("dashboard");
    for (const wait of [1000, 2000]) {
      h.latest("dashboard").die(134);
      expect(h.timers.at(-1)!.ms).toBe(wait);
      h.runTimers();
      h.tick(5000);
    }
    h.latest("dashboard").die(134);
    expect(h.lines.at(-1)).toBe("[dashboard] exited (code 134), 3 times within 60 s: not starting it again; sandbox keeps running");
    expect(h.timers).toHaveLength(0);
    expect(h.supervisor.children()).toEqual([h.latest("sandbox")]);
    expect(h.allStopped()).toBe(0);
    // Crashes older than the window are forgiven.
    h.latest("sandbox").die(1);
    h.runTimers();
    h.tick(61_000);
    h.latest("sandbox").die(1);
    expect(h.timers.at(-1)!.ms).toBe(1000);
  });

  it("stops everything when none is left running", () => {
    const h = harness({ maxRestarts: 0 });
    h.add("sandbox");
    h.add("dashboard");
    h.latest("sandbox").die(1);
    expect(h.allStopped()).toBe(0);
    h.latest("dashboard").die(1);
    expect(h.allStopped()).toBe(1);
  });

  it("starts nothing again once stopping, even a restart already scheduled", () => {
    const h = harness();
    h.add("sandbox");
    h.add("dashboard");
    h.latest("dashboard").die(1);
    const running = h.supervisor.stop();
    expect(running).toEqual([h.latest("sandbox")]);
    h.latest("sandbox").die(0);
    h.runTimers();
    expect(h.started.get("dashboard")).toHaveLength(1);
    expect(h.lines).toHaveLength(1);
  });
});

describe("with real processes", () => {
  let supervisor: ReturnType<typeof createSupervisor> | undefined;
  afterEach(() => {
    for (const child of supervisor?.stop() ?? []) (child as ChildProcess).kill("SIGKILL");
  });

  it("a child killed by SIGABRT (an out-of-memory abort) comes back; the other process is the same one, still alive", async () => {
    const lines: string[] = [];
    supervisor = createSupervisor({ log: (line) => lines.push(line), delayMs: 10 });
    const idle = () => spawn(process.execPath, ["-e", "setInterval(() => {}, 1000)"], { stdio: "ignore" });
    const sandbox = supervisor.add("sandbox", idle);
    const dashboard = supervisor.add("dashboard", idle);
    dashboard.kill("SIGABRT");
    const pids = () => (supervisor!.children() as ChildProcess[]).map((child) => child.pid);
    await expect.poll(() => pids().length === 2 && !pids().includes(dashboard.pid), { timeout: 10_000 }).toBe(true);
    const [stillSandbox, newDashboard] = supervisor.children() as ChildProcess[];
    expect(stillSandbox).toBe(sandbox);
    expect(sandbox.exitCode).toBeNull();
    expect(sandbox.signalCode).toBeNull();
    expect(newDashboard!.pid).not.toBe(dashboard.pid);
    expect(lines).toEqual(["[dashboard] exited (signal SIGABRT); starting it again in 0.01 s; sandbox keeps running"]);
  });
});
