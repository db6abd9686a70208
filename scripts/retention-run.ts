// `npm run retention:run`: applies every retention policy once (lib/privacy/server/policies.ts;
// docs/operations.md#retention), as the daily schedule does, and prints the count per kind. The run takes
// the same lease as the schedule, so it never runs beside an instance's run (it then says so and exits 1);
// it is audited as `retention.prune`. Audit events go through the audit trail's own pruner.
//
// Embedded mode (PGlite in DATA_DIR) allows one process at a time: stop the dashboard first.
import { randomUUID } from "node:crypto";

import { runRetention } from "@/lib/privacy/server/pruner";

import { runCli, withDatabase } from "./cli";

async function main(): Promise<number> {
  if (process.argv.length > 2) {
    console.error("usage: npm run retention:run   (no arguments)");
    return 2;
  }
  return withDatabase(async ({ db }) => {
    const report = await runRetention(db, { holder: `cli-${randomUUID()}` });
    if (!report.ran) {
      console.error("another instance is running the retention pruner now; nothing was done.");
      return 1;
    }
    for (const [kind, count] of Object.entries(report.counts)) console.log(`${kind.padEnd(20)} ${count.toLocaleString("en")}`);
    if (report.failed.length) {
      console.error(`failed: ${report.failed.join(", ")} (see the log lines above; the rest was done).`);
      return 1;
    }
    return 0;
  });
}

runCli(main, { lead: "retention:run failed" });
