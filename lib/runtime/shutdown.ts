import "server-only";

import { log } from "@/lib/log";

import { requestsInFlight, requestsQuiet, runStopHooks, startDraining } from "./lifecycle";

/*
 * A graceful stop on SIGTERM or SIGINT, installed by instrumentation.ts when Next leaves the signals to the app
 * (NEXT_MANUAL_SIG_HANDLE=true, which `npm start` and `npm run demo` set; without it Next closes the server itself
 * and a live stream holds the close until the process is killed). In order, within SHUTDOWN_GRACE_SECONDS:
 *
 *   1. draining (lib/runtime/lifecycle.ts): readiness answers 503, live streams end with a short `retry:` so the
 *      browser reconnects to another instance and replays from its Last-Event-ID, no job starts a new run;
 *   2. the API requests in flight are answered, and the instance waits until none has arrived for QUIET_MS (the
 *      proxy has noticed): a request still sent here meanwhile is served, not refused;
 *   3. the stop hooks: the jobs' runs under way end, the outbox stops after the message in hand, the leases this
 *      instance holds are handed back (another instance takes the work at its next look, not when they expire),
 *      the upstream counts are written, the database is closed;
 *   4. exit 0, or 1 when the grace ran out with requests still in flight.
 */

const QUIET_MS = 1_000;

export function installGracefulShutdown({
  graceMs,
  exit = (code: number) => process.exit(code),
}: {
  graceMs: number;
  exit?: (code: number) => void;
}): { stop: (signal: string) => Promise<void>; uninstall: () => void } {
  let stopping: Promise<void> | null = null;
  const stop = (signal: string) =>
    (stopping ??= (async () => {
      const started = Date.now();
      const deadline = started + graceMs;
      log.info("shutdown_started", { signal, graceMs, inFlight: requestsInFlight() });
      await startDraining();
      const quiet = await requestsQuiet(QUIET_MS, deadline);
      await runStopHooks(deadline);
      log.info("shutdown_done", { quiet, inFlight: requestsInFlight(), durationMs: Date.now() - started });
      exit(quiet ? 0 : 1);
    })());
  const listeners = (["SIGTERM", "SIGINT"] as const).map((signal) => {
    const listener = () => void stop(signal);
    process.once(signal, listener);
    return [signal, listener] as const;
  });
  return { stop, uninstall: () => listeners.forEach(([signal, listener]) => process.off(signal, listener)) };
}
