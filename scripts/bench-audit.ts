// The audit log benchmark (run by `npm run bench`; not a test: it reports figures, it asserts nothing).
//
// Fills a fresh database with BENCH_AUDIT_EVENTS chained events (default 1,000,000; realistic mix of
// actors, actions, outcomes, CPFs), then times the audit page's first page (50 events, the query the
// page and GET /api/audit run) with no filter and with each filter, a page deep in the log through the
// cursor, the page's work including the audit record of the view, the full CSV export (rows/s and heap growth: the stream's memory stays
// flat), and the chain verifier.
//
// Databases: PGlite (in memory) always, unless BENCH_AUDIT_DRIVERS says otherwise; PostgreSQL too when
// BENCH_DATABASE_URL or TEST_DATABASE_URL is set (a database is created for the run and dropped after).
//   BENCH_AUDIT_EVENTS=200000 BENCH_AUDIT_DRIVERS=postgres npm run bench -- audit
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import v8 from "node:v8";
import vm from "node:vm";

import { PGlite } from "@electric-sql/pglite";
import { sql } from "drizzle-orm";

import type { BenchRow } from "./bench";
import { scratchDatabase } from "./bench-database";

const RUNS = 7;

/** The garbage collector, made callable without --expose-gc (the npm script's node flags are fixed). */
function collector(): () => void {
  v8.setFlagsFromString("--expose-gc");
  const gc = vm.runInNewContext("gc") as (() => void) | undefined;
  return gc ?? (() => undefined);
}

interface Driver {
  name: "pglite" | "postgres";
  open(): Promise<{ handle: import("@/lib/db/client").DatabaseHandle; dispose(): Promise<void> }>;
}

function drivers(): Driver[] {
  const wanted = (process.env.BENCH_AUDIT_DRIVERS ?? "pglite,postgres").split(",").map((name) => name.trim());
  const url = process.env.BENCH_DATABASE_URL ?? process.env.TEST_DATABASE_URL;
  const list: Driver[] = [];
  if (wanted.includes("pglite")) {
    list.push({
      name: "pglite",
      async open() {
        const { createDatabase } = await import("@/lib/db/client");
        const handle = await createDatabase({ pglite: new PGlite() });
        return { handle, dispose: () => handle.close() };
      },
    });
  }
  if (wanted.includes("postgres") && url) {
    list.push({
      name: "postgres",
      async open() {
        const { createDatabase } = await import("@/lib/db/client");
        const scratch = await scratchDatabase(url);
        const handle = await createDatabase({ url: scratch.url });
        return {
          handle,
          async dispose() {
            await handle.close();
            await scratch.drop();
          },
        };
      },
    });
  }
  return list;
}

async function timed<T>(run: () => Promise<T>): Promise<{ ms: number; result: Awaited<T> }> {
  const started = performance.now();
  const result = await run();
  return { ms: performance.now() - started, result };
}

/** Median and max of RUNS runs after one warm-up run. */
async function measure<T>(run: () => Promise<T>): Promise<{ median: number; max: number; result: Awaited<T> }> {
  let result = await run();
  const times: number[] = [];
  for (let index = 0; index < RUNS; index += 1) {
    const sample = await timed(run);
    times.push(sample.ms);
    result = sample.result;
  }
  times.sort((a, b) => a - b);
  return { median: times[Math.floor(times.length / 2)]!, max: times.at(-1)!, result };
}

export default async function benchAudit(): Promise<BenchRow[]> {
  // Embedded configuration with throwaway secrets, unless the caller configured its own.
  process.env.DATA_DIR ??= fs.mkdtempSync(path.join(os.tmpdir(), "kyc-bench-"));
  const { cpfHashes } = await import("@/lib/audit-trail/server/record");
  const { appendChained, syntheticEvents, cpfFromBase } = await import("@/test/audit-trail");
  const { listAuditEvents, iterateAuditEvents } = await import("@/lib/audit-trail/server/query");
  const { csvStream } = await import("@/lib/audit-trail/server/csv");
  const { verifyAuditChain } = await import("@/lib/audit-trail/server/verify");
  const { viewAuditLog } = await import("@/lib/audit-trail/server/service");
  const { setLogSink } = await import("@/lib/log");

  const count = Number(process.env.BENCH_AUDIT_EVENTS ?? 1_000_000);
  const rows: BenchRow[] = [];
  const spanDays = 365;
  const start = new Date(Date.UTC(2025, 0, 1));
  const day = (n: number) => new Date(start.getTime() + n * 86_400_000);

  for (const driver of drivers()) {
    const { handle, dispose } = await driver.open();
    const db = handle.db;
    const suite = `audit (${driver.name}, ${count.toLocaleString("en")} events)`;
    try {
      process.stderr.write(`[bench audit ${driver.name}] inserting ${count.toLocaleString("en")} events…\n`);
      let lastReport = Date.now();
      const insert = await timed(() =>
        appendChained(db, syntheticEvents({ count, start, spanDays, seed: 7 }), {
          batchSize: 2000,
          onBatch: (written) => {
            if (Date.now() - lastReport > 10_000) {
              lastReport = Date.now();
              process.stderr.write(`  … ${written.toLocaleString("en")}\n`);
            }
          },
        }),
      );
      await db.execute(sql`analyze audit_events`);
      rows.push({
        suite,
        case: "insert (chained, batches of 2000)",
        value: insert.ms / 1000,
        unit: "s",
        note: `${Math.round(count / (insert.ms / 1000)).toLocaleString("en")} events/s`,
      });

      // A CPF that occurs, a verification target that occurs, a rare action, the busiest and a quiet actor.
      // The first CPF of the synthetic population that has events (index probes on target_hash).
      let cpf = cpfFromBase(100_000_000);
      for (let index = 0; index < 200; index += 1) {
        const candidate = cpfFromBase(100_000_000 + index * 7919);
        const hashes = sql.join(
          cpfHashes(candidate).map((hash) => sql`${hash}`),
          sql`, `,
        );
        const hit = (await db.execute(sql`select 1 from audit_events where target_hash in (${hashes}) limit 1`)) as unknown as {
          rows: unknown[];
        };
        if (hit.rows.length) {
          cpf = candidate;
          break;
        }
      }
      const [sampleTarget] = (
        (await db.execute(sql`select target from audit_events where target_type = 'verification' offset 5000 limit 1`)) as unknown as {
          rows: Array<{ target: string }>;
        }
      ).rows;
      const cases: Array<[string, Parameters<typeof listAuditEvents>[1]]> = [
        ["no filter", {}],
        ["actor (busiest)", { actor: "staff1@example.com" }],
        ["actor (quietest)", { actor: "staff40@example.com" }],
        ["action (common: verification.list)", { action: "verification.list" }],
        ["action (rare: audit.export)", { action: "audit.export" }],
        ["outcome (denied, 3%)", { outcome: "denied" }],
        ["target (one verification)", { target: sampleTarget?.target ?? "ver_1" }],
        ["target type (cpf)", { targetType: "cpf" }],
        ["CPF search (typed CPF → keyed hash)", { targetHashes: cpfHashes(cpf) }],
        ["time range (one day, mid-year)", { from: day(180), toExclusive: day(181) }],
        ["time range (one week, oldest)", { from: day(0), toExclusive: day(7) }],
        [
          "actor + action + time range",
          { actor: "staff3@example.com", action: "verification.view", from: day(100), toExclusive: day(200) },
        ],
        ["outcome + time range (rare in range)", { outcome: "denied", from: day(300), toExclusive: day(301) }],
      ];
      for (const [name, filter] of cases) {
        const result = await measure(() => listAuditEvents(db, filter, { limit: 50 }));
        rows.push({
          suite,
          case: `first page: ${name}`,
          value: result.median,
          unit: "ms",
          note: `max ${result.max.toFixed(1)} ms, ${result.result.events.length} events${result.result.nextCursor ? ", more" : ""}`,
        });
      }

      // Page 200 (events 9,951–10,000) through the cursor: keyset pages cost the same as the first.
      let cursor: string | undefined;
      for (let page = 1; page < 200; page += 1) cursor = (await listAuditEvents(db, {}, { limit: 50, cursor })).nextCursor ?? undefined;
      const deep = await measure(() => listAuditEvents(db, {}, { limit: 50, cursor }));
      rows.push({ suite, case: "page 200 via cursor: no filter", value: deep.median, unit: "ms", note: `max ${deep.max.toFixed(1)} ms` });

      // What the page and GET /api/audit do beyond the query: record the view in the trail (chained write).
      // (The route module itself cannot load outside Next under the react-server condition: next/navigation.)
      setLogSink(() => undefined);
      const viewer = { actor: { id: "00000000-0000-4000-8000-00000000beef", email: "bench@example.com" }, ip: "127.0.0.1" };
      const viewed = await measure(() => viewAuditLog(db, viewer, { filters: {}, seesCoaf: true }));
      rows.push({
        suite,
        case: "first page + audit record of the view (page/API)",
        value: viewed.median,
        unit: "ms",
        note: `max ${viewed.max.toFixed(1)} ms`,
      });

      // The full export, read as fast as possible: rows/s, and the heap that stays live while it streams
      // (measured after a forced collection every 100 batches: garbage waiting for the collector is not
      // memory the export holds).
      const gc = collector();
      gc();
      const heapBefore = process.memoryUsage().heapUsed;
      let heapPeak = heapBefore;
      let bytes = 0;
      let chunks = 0;
      const exported = await timed(async () => {
        const reader = csvStream(iterateAuditEvents(db, {}, 1000)).getReader();
        for (;;) {
          const { done, value } = await reader.read();
          if (done) break;
          bytes += value.byteLength;
          chunks += 1;
          if (chunks % 100 === 0) {
            gc();
            heapPeak = Math.max(heapPeak, process.memoryUsage().heapUsed);
          }
        }
      });
      rows.push({
        suite,
        case: "CSV export of every event (streamed)",
        value: exported.ms / 1000,
        unit: "s",
        note: `${Math.round(count / (exported.ms / 1000)).toLocaleString("en")} rows/s, ${(bytes / 1048576).toFixed(0)} MiB written, live heap ${(heapBefore / 1048576).toFixed(0)} MiB before, ${(heapPeak / 1048576).toFixed(0)} MiB at most during`,
      });

      const verified = await timed(() => verifyAuditChain(db, { batchSize: 5000 }));
      rows.push({
        suite,
        case: "audit:verify (whole chain)",
        value: verified.ms / 1000,
        unit: "s",
        note: verified.result.ok
          ? `intact, ${verified.result.checked.toLocaleString("en")} events`
          : `BROKEN: ${verified.result.broken?.message}`,
      });
    } finally {
      setLogSink(undefined);
      await dispose();
    }
  }
  return rows;
}
