// The Lighthouse benchmark (run by `npm run bench`; not a test: it reports figures, it asserts nothing).
//
// Lighthouse (the `lighthouse` package, desktop preset: simulated 40 ms RTT and 10 Mbit/s, no CPU
// slow-down) against the production build, in the browser tests' Chromium (headless, their flags), on
// the sign-in page (signed out), the list with 100 rows and a verification detail (signed in: the
// session cookie is sent as an extra header). Per page: the performance, accessibility and best
// practices scores, the largest contentful paint and the layout shift, each the median of the runs; the
// note names every audit that kept a category under 100. Nothing is downloaded: Lighthouse only drives
// the local Chromium.
//
//   BENCH_LIGHTHOUSE_RUNS=5 npm run bench -- lighthouse
import { spawn, type ChildProcess } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";

import lighthouse, { desktopConfig, type Flags, type Result } from "lighthouse";

import type { BenchRow } from "./bench";
import { DEMO, progress, signIn, someVerificationId, stats, withSystem } from "./bench-system";
import { CHROMIUM_ARGS, findChromium } from "./browser.mjs";

const suite = "lighthouse";
const RUNS = Number(process.env.BENCH_LIGHTHOUSE_RUNS ?? 3);
const CATEGORIES = ["performance", "accessibility", "best-practices"] as const;
/** The performance issue's goals: every category 100, LCP at most 500 ms. */
const LCP_GOAL_MS = 500;

interface Chromium {
  port: number;
  stop(): Promise<void>;
}

/** Starts headless Chromium with a DevTools port (the port it picked, read from its first lines). */
async function startChromium(): Promise<Chromium> {
  const executable = findChromium();
  if (!executable) throw new Error("no Chromium found (PLAYWRIGHT_CHROMIUM_PATH, /usr/bin/chromium): see scripts/browser.mjs");
  const profile = fs.mkdtempSync(path.join(os.tmpdir(), "kyc-bench-lighthouse-"));
  const child: ChildProcess = spawn(
    executable,
    [
      ...CHROMIUM_ARGS,
      "--headless=new",
      "--remote-debugging-port=0",
      `--user-data-dir=${profile}`,
      "--no-first-run",
      "--no-default-browser-check",
      "about:blank",
    ],
    { stdio: ["ignore", "ignore", "pipe"] },
  );
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
  const stop = async () => {
    child.kill("SIGTERM");
    await Promise.race([exited, new Promise((resolve) => setTimeout(resolve, 5000).unref())]);
    if (child.exitCode === null && child.signalCode === null) child.kill("SIGKILL");
    fs.rmSync(profile, { recursive: true, force: true });
  };
  const port = await new Promise<number>((resolve, reject) => {
    let text = "";
    const timer = setTimeout(() => reject(new Error(`Chromium did not open a DevTools port:\n${text}`)), 30_000);
    child.stderr!.on("data", (chunk: Buffer) => {
      text += chunk.toString();
      const match = /DevTools listening on ws:\/\/[^:]+:(\d+)\//.exec(text);
      if (match) {
        clearTimeout(timer);
        resolve(Number(match[1]));
      }
    });
    void exited.then(() => reject(new Error(`Chromium exited before opening a DevTools port:\n${text}`)));
  }).catch(async (error: unknown) => {
    await stop();
    throw error;
  });
  // Read and dropped from now on: a full pipe would stall the browser.
  child.stderr!.resume();
  return { port, stop };
}

interface Run {
  scores: Record<(typeof CATEGORIES)[number], number>;
  lcp: number;
  cls: number;
  /** Audits that cost a category points, e.g. "accessibility: color-contrast". */
  failing: string[];
}

function readRun(result: Result): Run {
  const scores = Object.fromEntries(
    CATEGORIES.map((id) => [id, Math.round((result.categories[id]?.score ?? Number.NaN) * 100)]),
  ) as Run["scores"];
  const failing: string[] = [];
  for (const id of CATEGORIES) {
    for (const ref of result.categories[id]?.auditRefs ?? []) {
      const audit = result.audits[ref.id];
      if (ref.weight > 0 && audit && audit.score !== null && audit.score < 1) failing.push(`${id}: ${ref.id} (${audit.score})`);
    }
  }
  if (result.runtimeError) failing.push(`runtime error: ${result.runtimeError.code}`);
  return {
    scores,
    lcp: result.audits["largest-contentful-paint"]?.numericValue ?? Number.NaN,
    cls: result.audits["cumulative-layout-shift"]?.numericValue ?? Number.NaN,
    failing,
  };
}

async function audit(port: number, url: string, cookie: string | undefined): Promise<Run> {
  const flags: Flags = {
    port,
    output: "json",
    logLevel: "error",
    onlyCategories: [...CATEGORIES],
    ...(cookie ? { extraHeaders: { Cookie: cookie } } : {}),
  };
  const answer = await lighthouse(url, flags, desktopConfig);
  if (!answer) throw new Error(`Lighthouse gave no result for ${url}`);
  return readRun(answer.lhr);
}

function rowsOf(label: string, runs: Run[]): BenchRow[] {
  const median = (values: number[]) => stats(values).median;
  const failing = [...new Set(runs.flatMap((run) => run.failing))];
  const scores = CATEGORIES.map((id) => `${id} ${median(runs.map((run) => run.scores[id]))}`).join(", ");
  const lcp = stats(runs.map((run) => run.lcp));
  const rows: BenchRow[] = CATEGORIES.map((id) => ({
    suite,
    case: `${label}: ${id} score`,
    value: median(runs.map((run) => run.scores[id])),
    unit: "count",
    note: `out of 100, median of ${runs.length}; min ${Math.min(...runs.map((run) => run.scores[id]))}`,
  }));
  rows.push(
    {
      suite,
      case: `${label}: largest contentful paint`,
      value: lcp.median,
      unit: "ms",
      note: `simulated desktop, goal ≤ ${LCP_GOAL_MS} ms: ${lcp.median <= LCP_GOAL_MS ? "met" : "not met"}; max ${lcp.max.toFixed(0)} ms; ${scores}`,
    },
    {
      suite,
      case: `${label}: cumulative layout shift`,
      value: median(runs.map((run) => run.cls)),
      unit: "count",
      note: failing.length ? `below 1 in some run: ${failing.join("; ")}` : "every scored audit passed in every run",
    },
  );
  return rows;
}

export default async function benchLighthouse(): Promise<BenchRow[]> {
  return withSystem(suite, async ({ base }) => {
    const analyst = await signIn(base, DEMO.analyst);
    const id = await someVerificationId(base, analyst.header);
    const pages = [
      { label: "/sign-in (signed out)", path: "/sign-in", cookie: undefined },
      { label: "/verifications?per_page=100", path: "/verifications?per_page=100", cookie: analyst.header },
      { label: "/verifications/<id>", path: `/verifications/${encodeURIComponent(id)}`, cookie: analyst.header },
    ];
    const chromium = await startChromium();
    try {
      const rows: BenchRow[] = [];
      for (const page of pages) {
        progress(suite, `${page.label}: ${RUNS} Lighthouse runs (desktop)…`);
        const runs: Run[] = [];
        for (let run = 0; run < RUNS; run += 1) runs.push(await audit(chromium.port, `${base}${page.path}`, page.cookie));
        rows.push(...rowsOf(page.label, runs));
      }
      return rows;
    } finally {
      await chromium.stop();
    }
  });
}
