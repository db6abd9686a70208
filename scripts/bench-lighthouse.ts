// The Lighthouse benchmark (run by `npm run bench`; not a test: it reports figures, it asserts nothing).
//
// Lighthouse (the `lighthouse` package, desktop preset: simulated 40 ms RTT and 10 Mbit/s, no CPU
// slow-down) against the production build, in the browser tests' Chromium (headless, their flags), on
// the sign-in page (signed out), the list with 100 rows, a verification detail and the case queue (signed in: the
// session cookie is put in the browser's cookie jar; a run that ends on another address, e.g. the
// sign-in page, is an error). Per page: the performance, accessibility and best
// practices scores, the largest contentful paint and the layout shift, each the median of the runs; the
// note names every audit that kept a category under 100. A breakdown row explains the LCP of the median
// run: the LCP element, its phases (TTFB, resource load delay, load time, render delay: they add up to
// the LCP), the document's compressed size and the render-blocking requests. Nothing is downloaded:
// Lighthouse only drives the local Chromium.
//
//   BENCH_LIGHTHOUSE_RUNS=5 npm run bench -- lighthouse
//   BENCH_LIGHTHOUSE_SAVE=/tmp/lhr npm run bench -- lighthouse   also keeps each page's last report (JSON)
import { spawn, type ChildProcess } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";

import lighthouse, { desktopConfig, type Flags, type Result } from "lighthouse";
import { WebSocket } from "undici";

import type { BenchRow } from "./bench";
import { DEMO, progress, signIn, someVerificationId, stats, withSystem } from "./bench-system";
import { CHROMIUM_ARGS, findChromium } from "./browser.mjs";

const suite = "lighthouse";
const RUNS = Number(process.env.BENCH_LIGHTHOUSE_RUNS ?? 3);
const CATEGORIES = ["performance", "accessibility", "best-practices"] as const;
/** The performance issue's goals: every category 100, LCP at most 500 ms. */
const LCP_GOAL_MS = 500;
/** Where to keep each page's last Lighthouse report (JSON), to read what the table only sums up. */
const SAVE_DIR = process.env.BENCH_LIGHTHOUSE_SAVE;

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
    // A process group of its own, so stopping it stops its helper processes too (they write into the profile).
    { stdio: ["ignore", "ignore", "pipe"], detached: true },
  );
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
  const signalGroup = (signal: NodeJS.Signals) => {
    try {
      process.kill(-child.pid!, signal);
    } catch {
      // The group has gone already.
    }
  };
  const stop = async () => {
    signalGroup("SIGTERM");
    await Promise.race([exited, new Promise((resolve) => setTimeout(resolve, 5000).unref())]);
    signalGroup("SIGKILL");
    // A helper outside the group may still be writing the profile (ENOTEMPTY, seen twice, the second time after ten
    // retries): Node retries those with a growing pause, and a profile still not removable is left with a warning
    // rather than failing the figures already measured.
    try {
      fs.rmSync(profile, { recursive: true, force: true, maxRetries: 10, retryDelay: 100 });
    } catch (error) {
      console.warn(`[bench lighthouse] left the temporary profile ${profile}: ${(error as Error).message}`);
    }
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
  /** The LCP element as Lighthouse names it (its selector), "?" when it found none. */
  element: string;
  /** The LCP phases in ms (simulated, they add up to `lcp`): TTFB, resource load delay, load time, render delay. */
  phases: [number, number, number, number];
  /** Render-blocking requests (path and transfer size), e.g. "/_next/static/css/x.css 6 KiB". */
  blocking: string[];
  /** The document's transfer size (compressed) in bytes. */
  documentBytes: number;
}

type Items = Array<Record<string, unknown>>;

/** The rows of an audit's table, or of the n-th table of its list (largest-contentful-paint-element has two). */
function tableItems(result: Result, id: string, index = 0): Items {
  const details = result.audits[id]?.details as { type?: string; items?: unknown[] } | undefined;
  if (!details?.items) return [];
  if (details.type === "list") return ((details.items[index] as { items?: Items } | undefined)?.items ?? []) as Items;
  return index === 0 ? (details.items as Items) : [];
}

function shortPath(url: string): string {
  try {
    return new URL(url).pathname;
  } catch {
    return url;
  }
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
  const node = tableItems(result, "largest-contentful-paint-element")[0]?.node as { selector?: string } | undefined;
  const phases = tableItems(result, "largest-contentful-paint-element", 1).map((row) => Number(row.timing));
  const requests = tableItems(result, "network-requests");
  const documentRequest = requests.find((row) => row.resourceType === "Document");
  return {
    scores,
    lcp: result.audits["largest-contentful-paint"]?.numericValue ?? Number.NaN,
    cls: result.audits["cumulative-layout-shift"]?.numericValue ?? Number.NaN,
    failing,
    element: node?.selector ?? "?",
    phases: [0, 1, 2, 3].map((index) => phases[index] ?? Number.NaN) as Run["phases"],
    blocking: tableItems(result, "render-blocking-insight").map(
      (row) => `${shortPath(String(row.url))} ${(Number(row.totalBytes) / 1024).toFixed(1)} KiB`,
    ),
    documentBytes: Number(documentRequest?.transferSize ?? Number.NaN),
  };
}

/**
 * Puts the session cookie in the browser's cookie jar (the DevTools protocol's Storage.setCookies, on
 * the browser's own connection). A `Cookie` header in Lighthouse's extraHeaders is not sent by this
 * Chromium: every signed-in page was measured as its redirect to the sign-in page. Lighthouse clears
 * no cookies between runs, so one call serves every run after it.
 */
async function setCookie(port: number, base: string, cookie: { name: string; value: string }): Promise<void> {
  const version = (await (await fetch(`http://127.0.0.1:${port}/json/version`)).json()) as { webSocketDebuggerUrl: string };
  const socket = new WebSocket(version.webSocketDebuggerUrl);
  try {
    await new Promise<void>((resolve, reject) => {
      socket.addEventListener("open", () => resolve(), { once: true });
      socket.addEventListener("error", () => reject(new Error("no DevTools connection")), { once: true });
    });
    const answer = new Promise<{ error?: { message: string } }>((resolve) =>
      socket.addEventListener("message", (event) => resolve(JSON.parse(String(event.data))), { once: true }),
    );
    const params = { cookies: [{ ...cookie, url: base, httpOnly: true, sameSite: "Lax" }] };
    socket.send(JSON.stringify({ id: 1, method: "Storage.setCookies", params }));
    const { error } = await answer;
    if (error) throw new Error(`Storage.setCookies: ${error.message}`);
  } finally {
    socket.close();
  }
}

async function audit(port: number, url: string): Promise<Run> {
  const flags: Flags = { port, output: "json", logLevel: "error", onlyCategories: [...CATEGORIES] };
  const answer = await lighthouse(url, flags, desktopConfig);
  if (!answer) throw new Error(`Lighthouse gave no result for ${url}`);
  // The page's path after redirects: the sign-in page's first visit makes a trip through next-auth for its
  // CSRF cookie and comes back with a query; a signed-in page that ends on /sign-in was measured signed out.
  const measured = new URL(answer.lhr.mainDocumentUrl ?? answer.lhr.finalDisplayedUrl).pathname;
  if (measured !== new URL(url).pathname) throw new Error(`Lighthouse measured ${measured}, not ${url} (signed out?)`);
  if (SAVE_DIR) {
    fs.mkdirSync(SAVE_DIR, { recursive: true });
    const name = new URL(url).pathname.replace(/[^a-z0-9]+/gi, "_");
    fs.writeFileSync(path.join(SAVE_DIR, `${name}.json`), JSON.stringify(answer.lhr));
  }
  return readRun(answer.lhr);
}

function rowsOf(label: string, runs: Run[]): BenchRow[] {
  const median = (values: number[]) => stats(values).median;
  const failing = [...new Set(runs.flatMap((run) => run.failing))];
  const scores = CATEGORIES.map((id) => `${id} ${median(runs.map((run) => run.scores[id]))}`).join(", ");
  const lcp = stats(runs.map((run) => run.lcp));
  // The phases and the rest of the run whose LCP is the median (the first of the two middle ones for an even count).
  const typical = [...runs].sort((a, b) => a.lcp - b.lcp)[(runs.length - 1) >> 1]!;
  const [ttfb, loadDelay, loadTime, renderDelay] = typical.phases.map((value) => value.toFixed(0));
  const explained =
    `element ${typical.element}; phases TTFB ${ttfb}, load delay ${loadDelay}, load time ${loadTime}, render delay ${renderDelay} ms; ` +
    `HTML ${(typical.documentBytes / 1024).toFixed(1)} KiB compressed; render-blocking: ${typical.blocking.join(", ") || "none"}`;
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
      case: `${label}: LCP breakdown`,
      value: lcp.median,
      unit: "ms",
      note: explained,
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
    // The signed-out page first: the session cookie is set in the browser after it.
    const pages = [
      { label: "/sign-in (signed out)", path: "/sign-in", signedIn: false },
      { label: "/verifications?per_page=100", path: "/verifications?per_page=100", signedIn: true },
      { label: "/verifications/<id>", path: `/verifications/${encodeURIComponent(id)}`, signedIn: true },
      { label: "/cases", path: "/cases", signedIn: true },
    ];
    const chromium = await startChromium();
    try {
      const rows: BenchRow[] = [];
      for (const page of pages) {
        progress(suite, `${page.label}: ${RUNS} Lighthouse runs (desktop)…`);
        if (page.signedIn) await setCookie(chromium.port, base, analyst);
        const runs: Run[] = [];
        for (let run = 0; run < RUNS; run += 1) runs.push(await audit(chromium.port, `${base}${page.path}`));
        rows.push(...rowsOf(page.label, runs));
      }
      return rows;
    } finally {
      await chromium.stop();
    }
  });
}
