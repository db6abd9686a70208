/*
 * Case work figures (issue 9): the sync over the sandbox's review list (upstream calls, time) and the queue
 * read with 1,000 open cases. Run: node --conditions=react-server --import tsx scripts/bench-cases.ts
 * (SANDBOX_VERIFICATIONS sets the sandbox's size; about 12 % are in review).
 */
import { spawn } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";

import { PGlite } from "@electric-sql/pglite";

const size = process.env.BENCH_SANDBOX_VERIFICATIONS ?? "85000";
const child = spawn(process.execPath, ["--import", "tsx", "sandbox/server.ts"], {
  env: {
    ...process.env,
    SANDBOX_PORT: "0",
    SANDBOX_VERIFICATIONS: size,
    SANDBOX_DATA_DIR: fs.mkdtempSync(path.join(os.tmpdir(), "bench-sandbox-")),
  },
  stdio: ["ignore", "pipe", "inherit"],
});
const url = await new Promise<string>((resolve) => {
  child.stdout.on("data", (chunk: Buffer) => {
    const match = /sandbox listening on (http:\/\/\S+)/.exec(chunk.toString());
    if (match) resolve(match[1]!);
  });
});
const sandbox = {
  url,
  clearRequests: () => fetch(`${url}/sandbox/requests`, { method: "DELETE" }),
  requests: async () => ((await (await fetch(`${url}/sandbox/requests`)).json()) as { requests: Array<{ path: string }> }).requests,
  stop: async () => void child.kill("SIGTERM"),
};
Object.assign(process.env, {
  SANDBOX_URL: sandbox.url,
  DATA_DIR: fs.mkdtempSync(path.join(os.tmpdir(), "bench-cases-")),
  NEXTAUTH_SECRET: "bench-nextauth-secret-0123456789abcdef",
  MEDIA_SEAL_SECRET: "bench-media-seal-secret-0123456789abcdef",
  AUDIT_HASH_SECRET: "bench-audit-hash-secret-0123456789abcdef",
  LOG_LEVEL: "silent",
});
const { createDatabase } = await import("../lib/db/client");
const { syncReviewCases } = await import("../lib/cases/sync");
const { caseSettings, listQueue } = await import("../lib/cases/store");
const { CoreClient } = await import("../lib/upstream/core");
const { config } = await import("../lib/config");

const handle = process.env.DATABASE_URL
  ? await createDatabase({ url: process.env.DATABASE_URL })
  : await createDatabase({ pglite: new PGlite() });
const client = CoreClient.fromConfig(config());
await sandbox.clearRequests();
const first = await syncReviewCases(handle.db, { client, settings: caseSettings(), perPage: 100 });
const logged = (await sandbox.requests()).filter((entry) => entry.path.startsWith("/core/")).length;
const second = await syncReviewCases(handle.db, { client, settings: caseSettings(), perPage: 100 });
console.log(
  `sync, first run: ${first.seen} review verifications, ${first.opened} cases opened, ${first.upstreamCalls} upstream calls (sandbox logged ${logged}), ${first.durationMs} ms`,
);
console.log(`sync, second run: ${second.opened} opened, ${second.upstreamCalls} upstream calls, ${second.durationMs} ms`);

const timings: number[] = [];
for (let run = 0; run < 20; run += 1) {
  const started = performance.now();
  await listQueue(handle.db, { queue: "open", sort: "age", page: 1, per_page: 50 }, "00000000-0000-4000-8000-000000000000");
  timings.push(performance.now() - started);
}
timings.sort((a, b) => a - b);
console.log(
  `queue read (open, 50 rows of ${first.opened} open cases): median ${timings[10]!.toFixed(1)} ms, p95 ${timings[18]!.toFixed(1)} ms`,
);
await handle.close();
await sandbox.stop();
