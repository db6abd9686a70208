// `npm run keys:reseal`: brings every case note and comment under the data key ring's current key once
// (lib/cases/server/text-reseal.ts; docs/operations.md#rotating-the-data-key), as the schedule does, and prints
// the counts. It takes the same lease as the schedule, so it never runs beside an instance's run (it then says so
// and exits 1); it is audited as `case.text_reseal`. `remaining` 0 means no row needs an older key any more.
//
// Embedded mode (PGlite in DATA_DIR) allows one process at a time: stop the dashboard first.
import { randomUUID } from "node:crypto";

import { resealCaseTexts } from "@/lib/cases/server/text-reseal";
import { config } from "@/lib/config";

import { runCli, withDatabase } from "./cli";

async function main(): Promise<number> {
  if (process.argv.length > 2) {
    console.error("usage: npm run keys:reseal   (no arguments)");
    return 2;
  }
  return withDatabase(async ({ db }) => {
    // No bound on the number of batches: by hand, the operator wants it done.
    const report = await resealCaseTexts(db, { holder: `cli-${randomUUID()}`, maxBatches: Number.MAX_SAFE_INTEGER });
    if (!report.ran) {
      console.error("another instance is re-sealing case texts now; nothing was done.");
      return 1;
    }
    console.log(
      `current data key: ${report.keyId} (ring: ${config()
        .secrets.dataEncryption.keys.map((key) => key.id)
        .join(", ")})`,
    );
    for (const [name, count] of Object.entries(report.counts)) console.log(`${name.padEnd(18)} ${count.toLocaleString("en")}`);
    if (report.counts.unreadable > 0) {
      console.error(`${report.counts.unreadable} text(s) are sealed under a key the ring no longer holds (or altered): left as they are.`);
    }
    return 0;
  });
}

runCli(main, { lead: "keys:reseal failed" });
