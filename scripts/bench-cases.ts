/*
 * Case work figures (issue 9), the `cases` suite of `npm run bench`: the sync over the sandbox's review list
 * (upstream calls from the dashboard's own counters, time): the first run (a full pass), a second with nothing new
 * (incremental, as the schedule runs it) and a full pass on demand; and the queue read with the cases it opened, on PGlite and, when TEST_DATABASE_URL
 * is set, on a PostgreSQL database of its own (created and dropped here). BENCH_SANDBOX_VERIFICATIONS sets
 * the sandbox's size (default 85,000: about 12 % are in review, so about 10,000 review verifications).
 * Also runnable alone: node --conditions=react-server --import tsx scripts/bench-cases.ts
 */
import { spawn } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";

import { PGlite } from "@electric-sql/pglite";

import type { BenchRow } from "./bench";
import { withScratchDatabase } from "./bench-database";

const suite = "cases";

async function startSandbox(size: string) {
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
  // Once more on a refused socket: after a long sync the pooled keep-alive connection may be one the sandbox just closed.
  const control = async (method: string): Promise<Response> => {
    try {
      return await fetch(`${url}/sandbox/requests`, { method });
    } catch {
      return fetch(`${url}/sandbox/requests`, { method });
    }
  };
  return {
    url,
    clearRequests: () => control("DELETE"),
    // The log is a cross-check of the counters; an answer cut short is read once more, then left out (null).
    requests: async (): Promise<Array<{ path: string }> | null> => {
      for (let attempt = 0; attempt < 2; attempt += 1) {
        try {
          return ((await (await control("GET")).json()) as { requests: Array<{ path: string }> }).requests;
        } catch {
          // read again
        }
      }
      return null;
    },
    stop: () => void child.kill("SIGTERM"),
  };
}

async function measure(
  label: string,
  open: () => Promise<{ db: unknown; close: () => Promise<void> }>,
  sandbox: Awaited<ReturnType<typeof startSandbox>>,
) {
  const { syncReviewCases } = await import("@/lib/cases/server/sync");
  const { caseSettings } = await import("@/lib/cases/server/store");
  const { listQueue } = await import("@/lib/cases/server/queue");
  const { CoreClient } = await import("@/lib/upstream/core");
  const { flushUpstreamCalls, withUpstreamSource } = await import("@/lib/upstream/call-count");
  const { config } = await import("@/lib/config");
  const handle = await open();
  const db = handle.db as Parameters<typeof syncReviewCases>[0];
  try {
    const client = CoreClient.fromConfig(config());
    const cfg = config();
    // As the schedule runs it: incremental between full passes; the first run has no cursor and is a full pass.
    const sync = (mode: "full" | "auto") =>
      withUpstreamSource("job:cases.sync", () =>
        syncReviewCases(db, {
          client,
          settings: caseSettings(),
          perPage: 100,
          mode,
          fullEveryMs: cfg.cases.syncFullHours * 3_600_000,
          dateFilter: { format: cfg.core.dateFilterFormat, timeZone: cfg.displayTimeZone },
        }),
      );
    // The calls each run made, from the dashboard's own counters (written to upstream_calls as a job's are).
    await flushUpstreamCalls(db);
    await sandbox.clearRequests();
    const first = await sync("auto");
    const firstCounted = await flushUpstreamCalls(db);
    const logged = (await sandbox.requests())?.filter((entry) => entry.path.startsWith("/core/")).length ?? "(unreadable)";
    const second = await sync("auto");
    const secondCounted = await flushUpstreamCalls(db);
    const full = await sync("full");
    const fullCounted = await flushUpstreamCalls(db);
    const timings: number[] = [];
    for (let run = 0; run < 20; run += 1) {
      const started = performance.now();
      await listQueue(
        db,
        "primary",
        { queue: "open", sort: "age", page: 1, per_page: 50 },
        { id: "00000000-0000-4000-8000-000000000000", permissions: [] },
      );
      timings.push(performance.now() - started);
    }
    timings.sort((a, b) => a - b);
    const rows: BenchRow[] = [
      {
        suite,
        case: `sync, first run (${label})`,
        value: first.durationMs / 1000,
        unit: "s",
        note: `${first.seen} review verifications, ${first.opened} opened`,
      },
      {
        suite,
        case: `sync, first run upstream calls (${label})`,
        value: firstCounted,
        unit: "count",
        note: `${first.mode} pass; the sandbox logged ${logged}`,
      },
      {
        suite,
        case: `sync with nothing new, upstream calls (${label})`,
        value: secondCounted,
        unit: "count",
        note: `${second.mode}, ${(second.durationMs / 1000).toFixed(2)} s, ${second.opened} opened, ${second.closed} closed; goal ≤ 5`,
      },
      {
        suite,
        case: `sync, full pass on demand, upstream calls (${label})`,
        value: fullCounted,
        unit: "count",
        note: `${(full.durationMs / 1000).toFixed(2)} s, ${full.staleChecked} open cases read one by one`,
      },
      {
        suite,
        case: `queue read, 50 of ${first.opened} open (${label})`,
        value: timings[10]!,
        unit: "ms",
        note: `p95 ${timings[18]!.toFixed(1)} ms`,
      },
    ];
    return rows;
  } finally {
    await handle.close();
  }
}

export default async function benchCases(): Promise<BenchRow[]> {
  const sandbox = await startSandbox(process.env.BENCH_SANDBOX_VERIFICATIONS ?? "85000");
  Object.assign(process.env, {
    SANDBOX_URL: sandbox.url,
    DATA_DIR: fs.mkdtempSync(path.join(os.tmpdir(), "bench-cases-")),
    NEXTAUTH_SECRET: process.env.NEXTAUTH_SECRET ?? "bench-nextauth-secret-0123456789abcdef",
    MEDIA_SEAL_SECRET: process.env.MEDIA_SEAL_SECRET ?? "bench-media-seal-secret-0123456789abcdef",
    AUDIT_HASH_SECRET: process.env.AUDIT_HASH_SECRET ?? "bench-audit-hash-secret-0123456789abcdef",
    DATA_ENCRYPTION_SECRET: process.env.DATA_ENCRYPTION_SECRET ?? "bench-data-encryption-secret-0123456789abcdef",
    LOG_LEVEL: "silent",
  });
  const { createDatabase } = await import("@/lib/db/client");
  try {
    const rows = await measure("PGlite", () => createDatabase({ pglite: new PGlite() }), sandbox);
    const adminUrl = process.env.TEST_DATABASE_URL;
    if (adminUrl) {
      rows.push(...(await withScratchDatabase(adminUrl, (url) => measure("PostgreSQL", () => createDatabase({ url }), sandbox))));
    }
    return rows;
  } finally {
    sandbox.stop();
  }
}

if (process.argv[1] && path.resolve(process.argv[1]) === path.resolve(import.meta.filename)) {
  for (const row of await benchCases()) console.log(`${row.case}: ${row.value.toFixed(2)} ${row.unit}${row.note ? ` (${row.note})` : ""}`);
}
