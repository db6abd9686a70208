// `npm run bench -- profile`: where a list request's CPU goes, against the bare proxy's, and the route kit's own
// cost (not a goal suite; run by name). Starts the production server with V8's sampling profiler
// (scripts/profile-hook.mjs), loads GET /api/verifications?per_page=20, the bench-only bare proxy (GET
// /api/bench/proxy, through the route kit) and the bare handler (GET /api/bench/bare, outside it) for
// BENCH_PROFILE_SECONDS each, has the server write its profile (SIGUSR2) and reports the self time per
// module, grouped by package or by the project's folder, per request of each load. Profiles stay in
// bench-results/profiles/ (git-ignored) for Chrome DevTools' Performance panel.
import fs from "node:fs";
import path from "node:path";
import { pathToFileURL } from "node:url";

import autocannon from "autocannon";

import type { BenchRow } from "./bench";
import { DEMO, progress, signIn, startSystem } from "./bench-system";

const suite = "profile";
const SECONDS = Number(process.env.BENCH_PROFILE_SECONDS ?? 10);
const OUT_DIR = path.resolve("bench-results", "profiles");

interface ProfileNode {
  id: number;
  callFrame: { url: string; functionName: string };
  children?: number[];
}
interface CpuProfile {
  nodes: ProfileNode[];
  samples: number[];
  timeDeltas: number[];
  startTime: number;
  endTime: number;
}

/** The group a script belongs to: an npm package, a folder of this project, Node itself, or V8's own work. */
function groupOf(url: string, functionName: string): string {
  if (!url) return functionName === "(garbage collector)" ? "(garbage collector)" : functionName === "(idle)" ? "(idle)" : "(V8/native)";
  const pkg = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(url);
  if (pkg) {
    const name = pkg[1]!;
    if (name === "next") {
      const inner = /next\/dist\/(?:compiled\/)?([^/]+)(?:\/([^/]+))?/.exec(url);
      return `next/${inner?.[1] ?? "?"}${inner?.[1] === "compiled" || inner?.[1] === "server" ? `/${inner?.[2] ?? ""}` : ""}`;
    }
    return name;
  }
  if (url.startsWith("node:")) return url;
  // Server chunks of the build: their source paths are gone, but the chunk names the route or the module group.
  const chunk = /\.next[^/]*\/server\/(.+)$/.exec(url);
  if (chunk) return `app chunk ${chunk[1]!.replace(/\.js$/, "")}`;
  return url.replace(/^file:\/\//, "").replace(process.cwd(), ".");
}

/** Self time in ms per group, over the samples taken between `from` and `to` (µs since the profile's start). */
function selfTimes(profile: CpuProfile, from: number, to: number): Map<string, number> {
  const byId = new Map(profile.nodes.map((node) => [node.id, node]));
  const totals = new Map<string, number>();
  let at = profile.startTime;
  profile.samples.forEach((id, index) => {
    at += profile.timeDeltas[index] ?? 0;
    const relative = at - profile.startTime;
    if (relative < from || relative >= to) return;
    const node = byId.get(id);
    if (!node) return;
    const group = groupOf(node.callFrame.url, node.callFrame.functionName);
    totals.set(group, (totals.get(group) ?? 0) + (profile.timeDeltas[index + 1] ?? profile.timeDeltas[index] ?? 0) / 1000);
  });
  return totals;
}

export default async function benchProfile(): Promise<BenchRow[]> {
  fs.rmSync(OUT_DIR, { recursive: true, force: true });
  fs.mkdirSync(OUT_DIR, { recursive: true });
  const system = await startSystem(suite, {
    BENCH_ROUTES: "on",
    NODE_OPTIONS: `${process.env.NODE_OPTIONS ?? ""} --import ${pathToFileURL(path.resolve("scripts", "profile-hook.mjs")).href}`.trim(),
    BENCH_PROFILE_DIR: OUT_DIR,
  });
  const windows: Record<string, { from: number; to: number; requests: number }> = {};
  const started = Date.now();
  try {
    const session = await signIn(system.base, DEMO.analyst);
    const runs: [string, string, Record<string, string>][] = [
      ["list", `${system.base}/api/verifications?per_page=20`, { cookie: session.header }],
      ["bare proxy", `${system.base}/api/bench/proxy`, {}],
      ["bare handler", `${system.base}/api/bench/bare`, {}],
    ];
    for (const [, url, headers] of runs) await autocannon({ url, connections: 10, duration: 3, headers }); // warm-up
    for (const [name, url, headers] of runs) {
      progress(suite, `${name}: ${SECONDS} s under load…`);
      const from = (Date.now() - started) * 1000;
      const result = await autocannon({ url, connections: 20, duration: SECONDS, headers });
      windows[name] = { from, to: (Date.now() - started) * 1000, requests: result.requests.total };
    }
    const elapsedAtStop = (Date.now() - started) * 1000;
    // The Next server alone (the hook wrote its pid): signalled as a group, the launcher would die of SIGUSR2 and
    // leave the server behind when the system is stopped.
    const pidFile = fs.readdirSync(OUT_DIR).find((name) => name.endsWith(".pid"));
    if (!pidFile) throw new Error("the profiling hook did not start in the Next server");
    process.kill(Number(fs.readFileSync(path.join(OUT_DIR, pidFile), "utf8")), "SIGUSR2");
    const deadline = Date.now() + 60_000;
    while (!fs.readdirSync(OUT_DIR).some((name) => name.endsWith(".done"))) {
      if (Date.now() > deadline) throw new Error("the Next server wrote no profile within a minute");
      await new Promise((resolve) => setTimeout(resolve, 250));
    }
    windows.stop = { from: elapsedAtStop, to: elapsedAtStop, requests: 0 };
  } finally {
    await system.stop();
  }
  const { stop, ...loads } = windows;
  const files = fs
    .readdirSync(OUT_DIR)
    .filter((name) => name.endsWith(".cpuprofile"))
    .map((name) => path.join(OUT_DIR, name))
    .sort((a, b) => fs.statSync(b).size - fs.statSync(a).size);
  if (!files[0]) throw new Error(`no profile written in ${OUT_DIR}`);
  const profile = JSON.parse(fs.readFileSync(files[0], "utf8")) as CpuProfile;
  // The profile's clock starts when the server started, after ours: it ends when we asked for it (`stop`).
  const offset = profile.endTime - profile.startTime - stop!.from;
  // The windows in the profile's own clock, for a closer look at single functions (DevTools, or a script).
  fs.writeFileSync(
    path.join(OUT_DIR, "windows.json"),
    JSON.stringify(
      Object.fromEntries(Object.entries(loads).map(([name, w]) => [name, { ...w, from: w.from + offset, to: w.to + offset }])),
    ),
  );
  const rows: BenchRow[] = [...memoryRows()];
  const perRequest: Record<string, Map<string, number>> = {};
  for (const [name, window] of Object.entries(loads)) {
    const totals = selfTimes(profile, window.from + offset, window.to + offset);
    perRequest[name] = new Map([...totals].map(([group, ms]) => [group, ms / window.requests]));
  }
  const empty = new Map<string, number>();
  const sum = (map: Map<string, number>) => [...map].filter(([group]) => group !== "(idle)").reduce((total, [, ms]) => total + ms, 0);
  rows.push({ suite, case: "CPU per list request", value: sum(perRequest["list"] ?? empty), unit: "ms" });
  rows.push({ suite, case: "CPU per bare-proxy request", value: sum(perRequest["bare proxy"] ?? empty), unit: "ms" });
  rows.push({ suite, case: "CPU per bare-handler request", value: sum(perRequest["bare handler"] ?? empty), unit: "ms" });
  // Where the list's CPU goes over the proxy's (the dashboard's own work), and the proxy's over the bare handler's
  // (the route kit's own cost).
  rows.push(...excessRows("list over proxy", perRequest["list"] ?? empty, perRequest["bare proxy"] ?? empty));
  rows.push(...excessRows("proxy over bare handler", perRequest["bare proxy"] ?? empty, perRequest["bare handler"] ?? empty));
  return rows;
}

/** The 15 groups whose self time per request grows most from `base` to `over`, largest first. */
function excessRows(label: string, over: Map<string, number>, base: Map<string, number>): BenchRow[] {
  const groups = [...new Set([...over.keys(), ...base.keys()])].filter((group) => group !== "(idle)");
  return groups
    .map((group) => ({ group, over: over.get(group) ?? 0, base: base.get(group) ?? 0 }))
    .sort((a, b) => b.over - b.base - (a.over - a.base))
    .slice(0, 15)
    .map(({ group, over: overMs, base: baseMs }) => ({
      suite,
      case: `${label}: ${group}`,
      value: overMs - baseMs,
      unit: "ms" as const,
      note: `${overMs.toFixed(3)} over ${baseMs.toFixed(3)}`,
    }));
}

/**
 * The Next server's memory at its peak resident set during the loads, as Node splits it: V8's heap (what the heap
 * snapshot beside it shows), and external memory, which holds PGlite's WebAssembly memory (the module asks for at
 * least 2,048 pages of 64 KiB: 128 MiB, whatever the database holds) and the buffers of answers in flight.
 */
function memoryRows(): BenchRow[] {
  const file = fs.readdirSync(OUT_DIR).find((name) => name.endsWith(".memory.json"));
  if (!file) return [];
  const peak = JSON.parse(fs.readFileSync(path.join(OUT_DIR, file), "utf8")) as NodeJS.MemoryUsage;
  const mib = (bytes: number) => bytes / 1_048_576;
  const rest = peak.rss - peak.heapTotal - peak.external;
  return [
    { suite, case: "memory at the peak: resident set", value: mib(peak.rss), unit: "MiB", note: "goal ≤ 300 MB (286 MiB)" },
    {
      suite,
      case: "memory at the peak: V8 heap used",
      value: mib(peak.heapUsed),
      unit: "MiB",
      note: `of ${mib(peak.heapTotal).toFixed(1)} MiB reserved`,
    },
    {
      suite,
      case: "memory at the peak: external",
      value: mib(peak.external),
      unit: "MiB",
      note: `PGlite's WebAssembly memory (128 MiB at least) and buffers; array buffers ${mib(peak.arrayBuffers).toFixed(1)} MiB`,
    },
    { suite, case: "memory at the peak: the rest (code, stacks, allocator)", value: mib(rest), unit: "MiB" },
  ];
}
