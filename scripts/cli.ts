// What every command-line script (`npm run audit:verify`, `keys:rotate`…) does around its own work: open the
// configured database and close it whatever happens, then exit with the script's code, or report what it threw.
import { openConfiguredDatabase, type DatabaseHandle } from "@/lib/db/client";
import { setLogSink } from "@/lib/log";

/** A wrong invocation: printed with the script's usage, exit 2. */
export class UsageError extends Error {}

export interface CliFailure {
  /** Printed before the message of what `main` threw (`<lead>: <message>`); without it, the message alone. */
  lead?: string;
  /** Printed under a UsageError's message. */
  usage?: string;
  /** The exit code for what `main` threw: 2 (could not run) unless told otherwise. */
  exitCode?: (error: unknown) => number;
}

/** Runs `main` and exits with the code it returns (0 for none); what it throws is printed on stderr. */
export function runCli(main: () => Promise<number | void>, failure: CliFailure = {}): void {
  // A script's stdout is its answer (operators and tests read it); the log's lines (say the signed audit head a
  // prune copies out: lib/audit-trail/server/head-file.ts) go to stderr.
  setLogSink((_level, line) => void process.stderr.write(`${line}\n`));
  main().then(
    (code) => process.exit(code ?? 0),
    (error: unknown) => {
      if (error instanceof UsageError) {
        console.error(failure.usage === undefined ? error.message : `${error.message}\n${failure.usage}`);
        return process.exit(2);
      }
      const message = error instanceof Error ? error.message : error;
      if (failure.lead === undefined) console.error(message);
      else console.error(`${failure.lead}: ${String(message)}`);
      return process.exit(failure.exitCode?.(error) ?? 2);
    },
  );
}

/** The configured database (migrated) for the length of `work`, closed after it, even when it throws. */
export async function withDatabase<T>(work: (handle: DatabaseHandle) => Promise<T>): Promise<T> {
  const handle = await openConfiguredDatabase();
  try {
    return await work(handle);
  } finally {
    await handle.close();
  }
}
