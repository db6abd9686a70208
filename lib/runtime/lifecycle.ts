import "server-only";

import { log } from "@/lib/log";

/*
 * The instance's life: serving, then draining once SIGTERM arrives (./shutdown.ts). While draining, readiness
 * answers 503 (GET /api/health?ready) so the proxy sends new requests elsewhere, live streams end with a retry hint
 * (the browser reconnects to another instance and replays from Last-Event-ID), jobs start no new run, and the API
 * requests already here are answered: the route kit counts them (`trackRequest`), so the drain knows when they are
 * done.
 *
 * On globalThis (`__kycLifecycle`, the process-wide slot test/lifecycle.ts puts back to serving): Next evaluates
 * instrumentation.ts and each route's bundle separately, and they must all see one state.
 */

type Hook = { name: string; run: () => Promise<unknown> | unknown };

interface LifecycleState {
  draining: boolean;
  inFlight: number;
  /** When the last API request arrived (Date.now()). */
  lastArrival: number;
  idle: Array<() => void>;
  /** Run when draining starts (end live streams, stop timers). */
  onDrain: Hook[];
  /** Run once requests are done or the grace ran out (wait for jobs, hand back leases, stop the outbox). */
  onStop: Hook[];
}

const slot = globalThis as typeof globalThis & { __kycLifecycle?: LifecycleState };
const state = (slot.__kycLifecycle ??= { draining: false, inFlight: 0, lastArrival: 0, idle: [], onDrain: [], onStop: [] });

export function isDraining(): boolean {
  return state.draining;
}

/** Counts an API request while it is answered. */
export async function trackRequest<T>(answer: () => Promise<T>): Promise<T> {
  state.inFlight += 1;
  state.lastArrival = Date.now();
  try {
    return await answer();
  } finally {
    state.inFlight -= 1;
    if (state.inFlight === 0) for (const wake of state.idle.splice(0)) wake();
  }
}

export function requestsInFlight(): number {
  return state.inFlight;
}

/** Something to do as soon as draining starts; `name` is for the log. Registered once per name. */
export function onDrain(name: string, run: Hook["run"]): void {
  if (!state.onDrain.some((hook) => hook.name === name)) state.onDrain.push({ name, run });
}

/** Something to do once requests are answered (or the grace ran out), before the process exits. */
export function onStop(name: string, run: Hook["run"]): void {
  if (!state.onStop.some((hook) => hook.name === name)) state.onStop.push({ name, run });
}

/**
 * Resolves once no API request has been in flight, nor arrived, for `quietMs` (the proxy has stopped sending here),
 * or at `deadline` (Date.now() time); true when it went quiet.
 */
export async function requestsQuiet(quietMs: number, deadline: number): Promise<boolean> {
  for (;;) {
    if (!(await requestsDone(deadline - Date.now()))) return false;
    const wait = state.lastArrival + quietMs - Date.now();
    if (wait <= 0) return true;
    // Quiet only after the deadline: wait for it, and count it done if nothing is in flight then.
    if (Date.now() + wait >= deadline) {
      await pause(deadline - Date.now());
      return state.inFlight === 0;
    }
    await pause(wait);
  }
}

function pause(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, Math.max(0, ms)));
}

/** Resolves when no API request is in flight, or after `timeoutMs`; true when none was left. */
export function requestsDone(timeoutMs: number): Promise<boolean> {
  if (state.inFlight === 0) return Promise.resolve(true);
  return new Promise((resolve) => {
    const timer = setTimeout(() => resolve(false), timeoutMs);
    state.idle.push(() => {
      clearTimeout(timer);
      resolve(true);
    });
  });
}

/** Starts draining and runs the drain hooks (each failure logged, none stopping the others). */
export async function startDraining(): Promise<void> {
  if (state.draining) return;
  state.draining = true;
  await runHooks(state.onDrain, "drain");
}

/** Runs the stop hooks, each within what is left of the deadline. */
export async function runStopHooks(deadline: number): Promise<void> {
  await runHooks(state.onStop, "stop", deadline);
}

async function runHooks(hooks: Hook[], phase: string, deadline?: number): Promise<void> {
  for (const hook of hooks) {
    const started = Date.now();
    try {
      const run = Promise.resolve(hook.run());
      if (deadline === undefined) await run;
      else
        await Promise.race([
          run,
          new Promise((_, reject) => setTimeout(() => reject(new Error("timed out")), Math.max(0, deadline - Date.now())).unref()),
        ]);
      log.info("shutdown_step", { phase, step: hook.name, durationMs: Date.now() - started });
    } catch (error) {
      log.warn("shutdown_step_failed", { phase, step: hook.name, error: error instanceof Error ? error.message : "Error" });
    }
  }
}
