// `npm run bench -- profile`: where a list request's CPU goes, against the bare proxy's (not a goal suite; run
// by name). Starts the production server with V8's sampling profiler (scripts/profile-hook.mjs), loads
// GET /api/verifications?per_page=20 then the bench-only bare proxy (GET /api/bench/proxy) for
// BENCH_PROFILE_SECONDS each, has the server write its profile (SIGUSR2) and reports the self time per
// module, grouped by package or by the project's folder, per request of each load. Profiles stay in
// bench-results/profiles/ (git-ignored) for Chrome DevTools' Performance panel.
import fs from "node:fs";
import path from "node:path";
import { pathToFileURL } from "node:url";

import autocannon from "autocannon";

import type { BenchRow } from "./bench";
import { DEMO, progress, signIn, startSystem } from "./bench-system";

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
  const suite = "profile";
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
  const rows: BenchRow[] = [];
  const perRequest: Record<string, Map<string, number>> = {};
  for (const [name, window] of Object.entries(loads)) {
    const totals = selfTimes(profile, window.from + offset, window.to + offset);
    perRequest[name] = new Map([...totals].map(([group, ms]) => [group, ms / window.requests]));
  }
  const list = perRequest["list"] ?? new Map<string, number>();
  const proxy = perRequest["bare proxy"] ?? new Map<string, number>();
  const groups = [...new Set([...list.keys(), ...proxy.keys()])].filter((group) => group !== "(idle)");
  const excess = groups
    .map((group) => ({ group, list: list.get(group) ?? 0, proxy: proxy.get(group) ?? 0 }))
    .sort((a, b) => b.list - b.proxy - (a.list - a.proxy));
  const sum = (map: Map<string, number>) => [...map].filter(([group]) => group !== "(idle)").reduce((total, [, ms]) => total + ms, 0);
  rows.push({ suite, case: "CPU per list request", value: sum(list), unit: "ms" });
  rows.push({ suite, case: "CPU per bare-proxy request", value: sum(proxy), unit: "ms" });
  for (const { group, list: listMs, proxy: proxyMs } of excess.slice(0, 15)) {
    rows.push({
      suite,
      case: `list over proxy: ${group}`,
      value: listMs - proxyMs,
      unit: "ms",
      note: `list ${listMs.toFixed(3)}, proxy ${proxyMs.toFixed(3)}`,
    });
  }
  return rows;
}
