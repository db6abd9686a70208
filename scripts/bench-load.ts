// The load benchmark (run by `npm run bench`; not a test: it reports figures, it asserts nothing).
//
// Each figure is a ratio measured in one run, so the machine's speed cancels out:
//
// - throughput: GET /api/verifications?per_page=20 (session check, validation, the upstream call, the
//   audit event, reshaping) against a no-op route handler of the same server (GET /api/health), autocannon
//   with 50 connections, the two taking turns for BENCH_LOAD_ROUNDS rounds of BENCH_LOAD_SECONDS each;
//   medians of requests per second; the list's share of the no-op's;
// - latency: with the sandbox answering the core API after 50 ms, the list through the dashboard against
//   the same call made to the sandbox directly, 10 connections, in turns; medians of p50 and p99, and the
//   dashboard's excess over the upstream's;
// - memory: the Next server's resident set, sampled every 200 ms during all of the above; the peak.
//
// On PGlite (the embedded default) always, and on PostgreSQL when TEST_DATABASE_URL is set (a database of
// its own, dropped afterwards).
//
//   BENCH_LOAD_SECONDS=10 BENCH_LOAD_ROUNDS=3 npm run bench -- load
import fs from "node:fs";

import autocannon from "autocannon";

import type { BenchRow } from "./bench";
import { withScratchDatabase } from "./bench-database";
import { CORE_API_KEY, DEMO, progress, signIn, stats, withSystem, type System } from "./bench-system";

const SECONDS = Number(process.env.BENCH_LOAD_SECONDS ?? 5);
const ROUNDS = Number(process.env.BENCH_LOAD_ROUNDS ?? 3);
const UPSTREAM_LATENCY_MS = 50;

interface Load {
  rps: number;
  p50: number;
  p99: number;
  failures: number;
}

async function load(url: string, connections: number, headers: Record<string, string>): Promise<Load> {
  const result = await autocannon({ url, connections, duration: SECONDS, headers });
  return {
    rps: result.requests.average,
    p50: result.latency.p50,
    p99: result.latency.p99,
    failures: result.non2xx + result.errors + result.timeouts,
  };
}

// ---- the Next server's memory ---------------------------------------------------------------------------

function children(pid: number): number[] {
  const found: number[] = [];
  for (const entry of fs.readdirSync("/proc")) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = fs.readFileSync(`/proc/${entry}/stat`, "utf8");
      // The command name may hold spaces and parentheses: the parent id is the second field after the last ")".
      const parent = Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[1]);
      if (parent === pid) found.push(Number(entry));
    } catch {
      // The process ended while we looked.
    }
  }
  return found;
}

function residentKiB(pid: number): number {
  try {
    const match = /VmRSS:\s+(\d+) kB/.exec(fs.readFileSync(`/proc/${pid}/status`, "utf8"));
    return match ? Number(match[1]) : 0;
  } catch {
    return 0;
  }
}

/** The Next server: the descendant of run.mjs whose command line runs next, the one holding the most memory. */
function nextServerPid(root: number): number | undefined {
  const all: number[] = [];
  const queue = [root];
  while (queue.length) {
    const pid = queue.shift()!;
    for (const child of children(pid)) {
      all.push(child);
      queue.push(child);
    }
  }
  const next = all.filter((pid) => {
    try {
      return (
        /next/.test(fs.readFileSync(`/proc/${pid}/cmdline`, "utf8")) && !/sandbox/.test(fs.readFileSync(`/proc/${pid}/cmdline`, "utf8"))
      );
    } catch {
      return false;
    }
  });
  return next.sort((a, b) => residentKiB(b) - residentKiB(a))[0];
}

function sampleMemory(root: number): () => number {
  let peak = 0;
  const timer = setInterval(() => {
    const pid = nextServerPid(root);
    if (pid) peak = Math.max(peak, residentKiB(pid));
  }, 200);
  return () => {
    clearInterval(timer);
    return peak / 1024;
  };
}

// ---- one database ----------------------------------------------------------------------------------------

async function measure(label: string, { base, sandbox, pid }: System): Promise<BenchRow[]> {
  const suite = `load (${label})`;
  const stopSampling = sampleMemory(pid);
  const session = await signIn(base, DEMO.analyst);
  const cookie = { cookie: session.header };
  const listUrl = `${base}/api/verifications?per_page=20`;
  const noopUrl = `${base}/api/health`;
  const directUrl = `${sandbox}/core/public/validations-persons?per_page=20&page=1`;

  progress(suite, "warming up…");
  await load(noopUrl, 10, {});
  await load(listUrl, 10, cookie);

  const list: Load[] = [];
  const noop: Load[] = [];
  for (let round = 0; round < ROUNDS; round += 1) {
    progress(suite, `throughput round ${round + 1}/${ROUNDS} (${SECONDS} s each, 50 connections)…`);
    // Alternate which goes first, so a slow spell lands on both alike.
    if (round % 2) {
      list.push(await load(listUrl, 50, cookie));
      noop.push(await load(noopUrl, 50, {}));
    } else {
      noop.push(await load(noopUrl, 50, {}));
      list.push(await load(listUrl, 50, cookie));
    }
  }

  const fault = await fetch(`${sandbox}/sandbox/faults`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ path_prefix: "/core", latency_ms: UPSTREAM_LATENCY_MS }),
  });
  if (!fault.ok) throw new Error(`setting the sandbox's latency failed: ${fault.status}`);
  const proxied: Load[] = [];
  const direct: Load[] = [];
  for (let round = 0; round < ROUNDS; round += 1) {
    progress(suite, `latency round ${round + 1}/${ROUNDS} (upstream at ${UPSTREAM_LATENCY_MS} ms, 10 connections)…`);
    direct.push(await load(directUrl, 10, { "X-API-Key": CORE_API_KEY }));
    proxied.push(await load(listUrl, 10, cookie));
  }
  await fetch(`${sandbox}/sandbox/faults`, { method: "DELETE" });
  const peakMiB = stopSampling();

  const median = (values: number[]) => stats(values).median;
  const failures = [...list, ...noop, ...proxied, ...direct].reduce((sum, run) => sum + run.failures, 0);
  const listRps = median(list.map((run) => run.rps));
  const noopRps = median(noop.map((run) => run.rps));
  const note = failures ? `${failures} failed requests` : undefined;
  return [
    { suite, case: "list throughput", value: listRps, unit: "req/s", note },
    { suite, case: "no-op throughput", value: noopRps, unit: "req/s" },
    { suite, case: "list / no-op throughput", value: (100 * listRps) / noopRps, unit: "%" },
    {
      suite,
      case: "p50 over upstream (50 ms)",
      value: median(proxied.map((run) => run.p50)) - median(direct.map((run) => run.p50)),
      unit: "ms",
      note: `dashboard ${median(proxied.map((run) => run.p50)).toFixed(1)} ms, upstream ${median(direct.map((run) => run.p50)).toFixed(1)} ms`,
    },
    {
      suite,
      case: "p99 over upstream (50 ms)",
      value: median(proxied.map((run) => run.p99)) - median(direct.map((run) => run.p99)),
      unit: "ms",
      note: `dashboard ${median(proxied.map((run) => run.p99)).toFixed(1)} ms, upstream ${median(direct.map((run) => run.p99)).toFixed(1)} ms`,
    },
    { suite, case: "next-server peak memory", value: peakMiB, unit: "MiB" },
  ];
}

export default async function benchLoad(): Promise<BenchRow[]> {
  const rows = await withSystem("load", (system) => measure("PGlite", system));
  const adminUrl = process.env.TEST_DATABASE_URL;
  if (adminUrl) {
    rows.push(
      ...(await withScratchDatabase(adminUrl, (url) =>
        withSystem("load", (system) => measure("PostgreSQL", system), { DATABASE_URL: url }),
      )),
    );
  }
  return rows;
}
