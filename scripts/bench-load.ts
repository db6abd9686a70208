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
// - memory: the Next server's resident set, sampled every 200 ms during all of the above; the peak;
// - CPU per request, from /proc during the throughput rounds: the Next server's, the sandbox's, the
//   database's (PostgreSQL's processes; PGlite runs inside the Next server) and the load generator's
//   (autocannon runs in this process). On a machine where all of them share the cores, throughput is
//   about cores / (sum of CPU per request), so these say where a list view's cost goes and what share
//   of the no-op's throughput the dashboard's own work would allow if the upstream and the database ran
//   elsewhere ("dashboard CPU, no-op / list");
// - the sandbox called directly with the same load: the upstream's own ceiling on this machine.
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
  /** CPU milliseconds per request, by process group, when measured. */
  cpu?: CpuPerRequest;
}

type CpuGroup = "dashboard" | "sandbox" | "database" | "load generator";
type CpuPerRequest = Record<CpuGroup, number>;

async function load(url: string, connections: number, headers: Record<string, string>, processes?: Processes): Promise<Load> {
  const before = processes && cpuNow(processes);
  const result = await autocannon({ url, connections, duration: SECONDS, headers });
  const after = processes && cpuNow(processes);
  const requests = result.requests.total;
  return {
    rps: result.requests.average,
    p50: result.latency.p50,
    p99: result.latency.p99,
    failures: result.non2xx + result.errors + result.timeouts,
    cpu:
      before && after && requests > 0
        ? (Object.fromEntries(
            (Object.keys(after) as CpuGroup[]).map((group) => [group, (after[group] - before[group]) / requests]),
          ) as CpuPerRequest)
        : undefined,
  };
}

// ---- CPU by process ---------------------------------------------------------------------------------

// Linux reports process CPU time in clock ticks of 1/100 s (USER_HZ, the same on every architecture).
const TICK_MS = 10;

function cpuMsOf(pid: number): number {
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, "utf8");
    const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    // utime and stime are fields 14 and 15 of stat, 12 and 13 after the name.
    return (Number(fields[11]) + Number(fields[12])) * TICK_MS;
  } catch {
    return 0; // gone: a PostgreSQL backend that ended, counted up to its last reading
  }
}

interface Processes {
  dashboard: number;
  sandbox: number | undefined;
  /** PostgreSQL: its server processes (the backends come and go, so they are listed at each reading). */
  postgres: boolean;
}

function postgresPids(): number[] {
  return fs
    .readdirSync("/proc")
    .filter((entry) => {
      if (!/^\d+$/.test(entry)) return false;
      try {
        return fs.readFileSync(`/proc/${entry}/comm`, "utf8").trim().startsWith("postgres");
      } catch {
        return false;
      }
    })
    .map(Number);
}

function cpuNow(processes: Processes): CpuPerRequest {
  const usage = process.cpuUsage();
  return {
    dashboard: cpuMsOf(processes.dashboard),
    sandbox: processes.sandbox ? cpuMsOf(processes.sandbox) : 0,
    database: processes.postgres ? postgresPids().reduce((sum, pid) => sum + cpuMsOf(pid), 0) : 0,
    "load generator": (usage.user + usage.system) / 1000,
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

function descendants(root: number): number[] {
  const all: number[] = [];
  const queue = [root];
  while (queue.length) {
    const pid = queue.shift()!;
    for (const child of children(pid)) {
      all.push(child);
      queue.push(child);
    }
  }
  return all;
}

function commandLine(pid: number): string {
  try {
    return fs.readFileSync(`/proc/${pid}/cmdline`, "utf8");
  } catch {
    return "";
  }
}

/** The Next server: the descendant of run.mjs whose command line runs next, the one holding the most memory. */
function nextServerPid(root: number): number | undefined {
  const next = descendants(root).filter((pid) => /next/.test(commandLine(pid)) && !/sandbox/.test(commandLine(pid)));
  return next.sort((a, b) => residentKiB(b) - residentKiB(a))[0];
}

/** The sandbox: the descendant of run.mjs running sandbox/server.ts (the node process itself, not a wrapper). */
function sandboxPid(root: number): number | undefined {
  return descendants(root)
    .filter((pid) => commandLine(pid).includes("sandbox/server.ts"))
    .sort((a, b) => residentKiB(b) - residentKiB(a))[0];
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

async function measure(label: string, { base, sandbox, pid }: System, postgres: boolean): Promise<BenchRow[]> {
  const suite = `load (${label})`;
  const stopSampling = sampleMemory(pid);
  const session = await signIn(base, DEMO.analyst);
  const cookie = { cookie: session.header };
  const listUrl = `${base}/api/verifications?per_page=20`;
  const noopUrl = `${base}/api/health`;
  // The bench-only anchors: the same upstream answer forwarded and nothing else, through the route kit
  // (app/api/bench/proxy) and as a plain handler outside it (app/api/bench/bare).
  const proxyUrl = `${base}/api/bench/proxy`;
  const bareUrl = `${base}/api/bench/bare`;
  const directUrl = `${sandbox}/core/public/validations-persons?per_page=20&page=1`;
  const directHeaders = { "X-API-Key": CORE_API_KEY };

  progress(suite, "warming up…");
  await load(noopUrl, 10, {});
  await load(listUrl, 10, cookie);
  await load(proxyUrl, 10, {});
  await load(bareUrl, 10, {});
  const dashboard = nextServerPid(pid);
  if (!dashboard) throw new Error("the Next server's process was not found");
  const processes: Processes = { dashboard, sandbox: sandboxPid(pid), postgres };

  const list: Load[] = [];
  const noop: Load[] = [];
  const sandboxAlone: Load[] = [];
  const listAt20: Load[] = [];
  const bareProxy: Load[] = [];
  const bareHandler: Load[] = [];
  for (let round = 0; round < ROUNDS; round += 1) {
    progress(suite, `list against the anchors, round ${round + 1}/${ROUNDS} (${SECONDS} s each, 20 connections)…`);
    const turns = [
      async () => listAt20.push(await load(listUrl, 20, cookie, processes)),
      async () => bareProxy.push(await load(proxyUrl, 20, {}, processes)),
      async () => bareHandler.push(await load(bareUrl, 20, {}, processes)),
    ];
    for (let turn = 0; turn < turns.length; turn += 1) await turns[(turn + round) % turns.length]!();
  }
  for (let round = 0; round < ROUNDS; round += 1) {
    progress(suite, `throughput round ${round + 1}/${ROUNDS} (${SECONDS} s each, 50 connections)…`);
    // Alternate which goes first, so a slow spell lands on all alike.
    const turns = [
      async () => list.push(await load(listUrl, 50, cookie, processes)),
      async () => noop.push(await load(noopUrl, 50, {}, processes)),
      async () => sandboxAlone.push(await load(directUrl, 50, directHeaders, processes)),
    ];
    for (let turn = 0; turn < turns.length; turn += 1) await turns[(turn + round) % turns.length]!();
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
    direct.push(await load(directUrl, 10, directHeaders));
    proxied.push(await load(listUrl, 10, cookie));
  }
  await fetch(`${sandbox}/sandbox/faults`, { method: "DELETE" });
  const peakMiB = stopSampling();

  const median = (values: number[]) => stats(values).median;
  const failures = [...list, ...noop, ...sandboxAlone, ...listAt20, ...bareProxy, ...bareHandler, ...proxied, ...direct].reduce(
    (sum, run) => sum + run.failures,
    0,
  );
  const listRps = median(list.map((run) => run.rps));
  const noopRps = median(noop.map((run) => run.rps));
  const cpu = (runs: Load[], group: CpuGroup) => median(runs.map((run) => run.cpu?.[group] ?? 0));
  const cpuNote = (runs: Load[]) =>
    (["sandbox", "database", "load generator"] as const)
      .filter((group) => group !== "database" || postgres)
      .map((group) => `${group} ${cpu(runs, group).toFixed(2)}`)
      .join(", ") + " ms";
  const note = failures ? `${failures} failed requests` : undefined;
  const listAt20Rps = median(listAt20.map((run) => run.rps));
  const bareProxyRps = median(bareProxy.map((run) => run.rps));
  const bareHandlerRps = median(bareHandler.map((run) => run.rps));
  return [
    {
      suite,
      case: "list / bare handler throughput",
      value: (100 * listAt20Rps) / bareHandlerRps,
      unit: "%",
      note: `goal ≥ 75 %; list ${listAt20Rps.toFixed(0)} req/s, bare handler (no route kit) ${bareHandlerRps.toFixed(0)} req/s (20 connections)`,
    },
    {
      suite,
      case: "route kit's own cost: bare proxy / bare handler throughput",
      value: (100 * bareProxyRps) / bareHandlerRps,
      unit: "%",
      note: `the same forwarding through route() (public, no database) and outside it; CPU per request ${cpu(bareProxy, "dashboard").toFixed(2)} and ${cpu(bareHandler, "dashboard").toFixed(2)} ms`,
    },
    {
      suite,
      case: "list / bare proxy throughput",
      value: (100 * listAt20Rps) / bareProxyRps,
      unit: "%",
      note: `list ${listAt20Rps.toFixed(0)} req/s, bare proxy (through the route kit) ${bareProxyRps.toFixed(0)} req/s (20 connections)`,
    },
    {
      suite,
      case: "dashboard CPU per list request over the bare proxy's",
      value: cpu(listAt20, "dashboard") - cpu(bareProxy, "dashboard"),
      unit: "ms",
      note: `list ${cpu(listAt20, "dashboard").toFixed(2)} ms, bare proxy ${cpu(bareProxy, "dashboard").toFixed(2)} ms`,
    },
    { suite, case: "list throughput", value: listRps, unit: "req/s", note },
    { suite, case: "no-op throughput", value: noopRps, unit: "req/s" },
    { suite, case: "list / no-op throughput", value: (100 * listRps) / noopRps, unit: "%", note: `goal ≥ ${postgres ? 60 : 45} %` },
    {
      suite,
      case: "sandbox alone / no-op throughput",
      value: (100 * median(sandboxAlone.map((run) => run.rps))) / noopRps,
      unit: "%",
      note: `the upstream called directly, ${median(sandboxAlone.map((run) => run.rps)).toFixed(0)} req/s`,
    },
    { suite, case: "dashboard CPU per list request", value: cpu(list, "dashboard"), unit: "ms", note: `besides: ${cpuNote(list)}` },
    { suite, case: "dashboard CPU per no-op request", value: cpu(noop, "dashboard"), unit: "ms", note: `besides: ${cpuNote(noop)}` },
    {
      suite,
      case: "dashboard CPU, no-op / list",
      value: (100 * cpu(noop, "dashboard")) / cpu(list, "dashboard"),
      unit: "%",
      note: "the throughput share the dashboard's own work allows, upstream and database elsewhere",
    },
    {
      suite,
      case: "p50 over upstream (50 ms)",
      value: median(proxied.map((run) => run.p50)) - median(direct.map((run) => run.p50)),
      unit: "ms",
      note: `goal + 5 ms; dashboard ${median(proxied.map((run) => run.p50)).toFixed(1)} ms, upstream ${median(direct.map((run) => run.p50)).toFixed(1)} ms`,
    },
    {
      suite,
      case: "p99 over upstream (50 ms)",
      value: median(proxied.map((run) => run.p99)) - median(direct.map((run) => run.p99)),
      unit: "ms",
      note: `goal + 20 ms; dashboard ${median(proxied.map((run) => run.p99)).toFixed(1)} ms, upstream ${median(direct.map((run) => run.p99)).toFixed(1)} ms`,
    },
    { suite, case: "next-server peak memory", value: peakMiB, unit: "MiB", note: "goal ≤ 300 MB (286 MiB)" },
  ];
}

export default async function benchLoad(): Promise<BenchRow[]> {
  const rows = await withSystem("load", (system) => measure("PGlite", system, false), { BENCH_ROUTES: "on" });
  const adminUrl = process.env.TEST_DATABASE_URL;
  if (adminUrl) {
    rows.push(
      ...(await withScratchDatabase(adminUrl, (url) =>
        withSystem("load", (system) => measure("PostgreSQL", system, true), { DATABASE_URL: url, BENCH_ROUTES: "on" }),
      )),
    );
  }
  return rows;
}
