import "server-only";

/*
 * The process's standard output and error once whatever reads them has gone: a log collector that restarted, a
 * supervisor whose pipe closed, `npm run demo | head` once head has its lines. Node fails the next write with EPIPE
 * and emits it on the stream. With nobody listening there, it becomes an uncaught exception, which Next reports by
 * writing it to stderr, which fails the same way, and so on, one tick after another: the server spun at 100 % CPU,
 * answered no request and never reached its SIGTERM handler, so only SIGKILL stopped it.
 *
 * guardProcessOutput listens for those errors (instrumentation.ts installs it first thing). Every later write fails
 * the same way, to its writer's callback, and is dropped: a lost output loses its lines and nothing else. The server goes on answering and stops gracefully. lib/log.ts counts the lines lost
 * (kyc_log_lines_dropped_total{stream}), since the log can no longer say so.
 */

type Output = Pick<NodeJS.WritableStream, "on">;

// On globalThis: Next evaluates instrumentation.ts and each route's bundle separately, and a stream is guarded once.
const guarded = ((globalThis as typeof globalThis & { __kycGuardedOutputs?: WeakSet<Output> }).__kycGuardedOutputs ??= new WeakSet());

/** Makes a write error on the process's outputs (or the ones given) lose the line instead of failing the process. */
export function guardProcessOutput(outputs: Output[] = [process.stdout, process.stderr]): void {
  for (const stream of outputs) {
    if (guarded.has(stream)) continue;
    guarded.add(stream);
    // Heard, so not uncaught; the writer's own callback has the error (lib/log.ts counts the line).
    stream.on("error", () => undefined);
  }
}
