// `npm run audit:verify`: walks the audit chain and names the first broken event. Exit 0 when the chain is
// intact, 1 when it is broken, 2 when it could not be checked (database unreachable, configuration invalid).
//
// Embedded mode (PGlite in DATA_DIR) allows one process at a time: stop the dashboard first.
import { verifyAuditChain } from "@/lib/audit-trail/verify";
import { createDatabase, configuredSource } from "@/lib/db/client";

async function main(): Promise<number> {
  const handle = await createDatabase(configuredSource());
  try {
    const started = Date.now();
    let lastReport = started;
    const result = await verifyAuditChain(handle.db, {
      onProgress: (checked) => {
        if (Date.now() - lastReport > 5000) {
          lastReport = Date.now();
          process.stderr.write(`  … ${checked.toLocaleString("en")} events checked\n`);
        }
      },
    });
    const seconds = ((Date.now() - started) / 1000).toFixed(1);
    const from = result.checkpoint
      ? `from retention checkpoint #${result.checkpoint.id} (${result.checkpoint.removedCount.toLocaleString("en")} events up to #${result.checkpoint.throughEventId} pruned on ${result.checkpoint.createdAt})`
      : "from the start of the chain";
    if (result.ok) {
      const range = result.checked ? `, events #${result.firstEventId} to #${result.lastEventId}` : "";
      console.log(`audit chain intact: ${result.checked.toLocaleString("en")} events checked ${from}${range}, in ${seconds} s`);
      return 0;
    }
    console.error(`audit chain BROKEN at ${result.broken!.eventId !== null ? `event #${result.broken!.eventId}` : `checkpoint #${result.broken!.checkpointId}`}`);
    console.error(`  ${result.broken!.message}`);
    console.error(`  ${result.checked.toLocaleString("en")} events before it verified ${from}.`);
    return 1;
  } finally {
    await handle.close();
  }
}

main().then(
  (code) => process.exit(code),
  (error: unknown) => {
    console.error(`audit:verify could not run: ${error instanceof Error ? error.message : String(error)}`);
    process.exit(2);
  },
);
