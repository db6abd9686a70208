// The pages benchmark (run by `npm run bench`; not a test: it reports figures, it asserts nothing).
//
//   - Server render of /verifications?per_page=100: time to the full HTML answer (and to its first byte)
//     with a signed-in session cookie, timed from this process.
//   - The same page in Chromium (playwright-core, headless, the browser tests' Chromium and flags): time
//     from navigation start to the 100th row laid out and visible, and the sum of layout shifts until
//     then plus half a second. "Cold": a new browser context each time (empty HTTP cache); "warm": the
//     same tab navigating to it again (scripts cached).
//   - Client JavaScript per page: each page loaded signed in as admin (the sign-in page signed out) in a
//     new context, summing the script responses up to the load event: transferred (encoded, as `next
//     start` compresses them) and decoded sizes. Scripts fetched after the load event (route prefetches)
//     are reported in the note.
//
//   BENCH_PAGES_RUNS=100 BENCH_BROWSER_RUNS=20 npm run bench -- pages
import { chromium, type Browser, type BrowserContext, type Page, type Response } from "playwright-core";

import type { BenchRow } from "./bench";
import { DEMO, progress, signIn, someVerificationId, stats, timed, withSystem } from "./bench-system";
import { CHROMIUM_ARGS, findChromium } from "./browser.mjs";

const suite = "pages";
const LIST = "/verifications?per_page=100";
const SSR_WARMUP = 5;
const SSR_RUNS = Number(process.env.BENCH_PAGES_RUNS ?? 50);
const BROWSER_WARMUP = 2;
const BROWSER_RUNS = Number(process.env.BENCH_BROWSER_RUNS ?? 20);
const SETTLE_MS = 500;
/** Issue 11's goal for each page's first-load scripts, gzip as transferred, in kB (1,000 bytes). */
const CLIENT_JS_GOAL_KB = 150;

const ms = (value: number) => `${value.toFixed(1)} ms`;
const kib = (bytes: number) => bytes / 1024;

// ---- server render ------------------------------------------------------------------------------------

/** How much of an HTML answer is its inline scripts (the RSC payload Next inlines for hydration), the rest markup. */
function htmlParts(html: string): { scripts: number; markup: number } {
  const scripts = (html.match(/<script\b[^>]*>[\s\S]*?<\/script>/g) ?? []).reduce((total, tag) => total + Buffer.byteLength(tag), 0);
  return { scripts, markup: Buffer.byteLength(html) - scripts };
}

async function serverRender(base: string, cookie: string): Promise<BenchRow[]> {
  progress(suite, `server render of ${LIST}: ${SSR_WARMUP} warm-up + ${SSR_RUNS} requests…`);
  const firstByte: number[] = [];
  let html = "";
  const once = async () => {
    const start = performance.now();
    const response = await fetch(`${base}${LIST}`, { headers: { cookie }, redirect: "manual" });
    firstByte.push(performance.now() - start);
    html = await response.text();
    if (response.status !== 200) throw new Error(`GET ${LIST}: ${response.status}`);
  };
  for (let run = 0; run < SSR_WARMUP; run += 1) await once();
  firstByte.length = 0;
  const full: number[] = [];
  for (let run = 0; run < SSR_RUNS; run += 1) full.push(await timed(once));
  const total = stats(full);
  const ttfb = stats(firstByte);
  const rowLinks = new Set(html.match(/href="\/verifications\/[0-9a-f-]{36}[?"]/g) ?? []).size;
  const parts = htmlParts(html);
  return [
    {
      suite,
      case: `server render ${LIST}: full HTML, median`,
      value: total.median,
      unit: "ms",
      note: `p95 ${ms(total.p95)}, n=${total.n}; first byte median ${ms(ttfb.median)}`,
    },
    { suite, case: `server render ${LIST}: full HTML, p95`, value: total.p95, unit: "ms", note: `max ${ms(total.max)}` },
    {
      suite,
      case: `server render ${LIST}: HTML size`,
      value: kib(Buffer.byteLength(html)),
      unit: "KiB",
      note: `goal ≤ 250 KiB; decoded, ${rowLinks} row links in it; markup ${kib(parts.markup).toFixed(1)} KiB, inline scripts (the RSC payload) ${kib(parts.scripts).toFixed(1)} KiB`,
    },
  ];
}

/**
 * A verification's page as the browser loads it (`Sec-Fetch-Dest: document`, so its image tokens come with it): its
 * HTML's size, markup beside the inline scripts. The verification is drawn on the server and sent once, as markup.
 */
async function detailHtml(base: string, cookie: string, id: string): Promise<BenchRow> {
  const path = `/verifications/${encodeURIComponent(id)}`;
  const response = await fetch(`${base}${path}`, { headers: { cookie, "sec-fetch-dest": "document" }, redirect: "manual" });
  const html = await response.text();
  if (response.status !== 200) throw new Error(`GET ${path}: ${response.status}`);
  const parts = htmlParts(html);
  return {
    suite,
    case: "server render of a verification's page: HTML size",
    value: kib(Buffer.byteLength(html)),
    unit: "KiB",
    note: `decoded; markup ${kib(parts.markup).toFixed(1)} KiB, inline scripts (the RSC payload) ${kib(parts.scripts).toFixed(1)} KiB`,
  };
}

// ---- the list in the browser --------------------------------------------------------------------------

interface PageProbe {
  row100: number | null;
  layoutShift: number;
  shifts: number;
}

/**
 * Runs in the page before its own scripts: notes when the 100th row of the real table (not the skeleton)
 * is laid out and visible, and sums layout shifts. Plain JavaScript text rather than a function: tsx
 * compiles functions with a `__name` helper that does not exist in the page.
 */
const PROBE = `(() => {
  const probe = { row100: null, layoutShift: 0, shifts: 0 };
  window.__benchProbe = probe;
  new PerformanceObserver((list) => {
    for (const entry of list.getEntries()) {
      if (entry.hadRecentInput) continue;
      probe.layoutShift += entry.value;
      probe.shifts += 1;
    }
  }).observe({ type: "layout-shift", buffered: true });
  function check() {
    if (probe.row100 !== null) return;
    const row = document.querySelector("table:not([aria-hidden]) > tbody > tr:nth-child(100)");
    if (!row) return;
    const rect = row.getBoundingClientRect();
    if (rect.width > 0 && rect.height > 0 && getComputedStyle(row).visibility !== "hidden") probe.row100 = performance.now();
  }
  new MutationObserver(check).observe(document, { childList: true, subtree: true, attributes: true });
  function frame() {
    check();
    if (probe.row100 === null) requestAnimationFrame(frame);
  }
  requestAnimationFrame(frame);
})();`;

interface ListVisit {
  row100: number;
  layoutShift: number;
  shifts: number;
  responseEnd: number;
  firstPaint: number;
}

async function visitList(page: Page, base: string): Promise<ListVisit> {
  await page.goto(`${base}${LIST}`, { waitUntil: "load" });
  await page.waitForFunction(() => (window as unknown as { __benchProbe?: PageProbe }).__benchProbe?.row100 != null, undefined, {
    timeout: 30_000,
  });
  await page.waitForTimeout(SETTLE_MS);
  return page.evaluate(() => {
    const probe = (window as unknown as { __benchProbe: PageProbe }).__benchProbe;
    const navigation = performance.getEntriesByType("navigation")[0] as PerformanceNavigationTiming | undefined;
    const paint = performance.getEntriesByName("first-contentful-paint")[0];
    return {
      row100: probe.row100!,
      layoutShift: probe.layoutShift,
      shifts: probe.shifts,
      responseEnd: navigation?.responseEnd ?? Number.NaN,
      firstPaint: paint?.startTime ?? Number.NaN,
    };
  });
}

async function listInBrowser(
  browser: Browser,
  base: string,
  storageState: Awaited<ReturnType<BrowserContext["storageState"]>>,
): Promise<BenchRow[]> {
  progress(suite, `${LIST} in Chromium: ${BROWSER_WARMUP} warm-up + ${BROWSER_RUNS} cold and ${BROWSER_RUNS} warm visits…`);
  const cold: ListVisit[] = [];
  for (let run = 0; run < BROWSER_WARMUP + BROWSER_RUNS; run += 1) {
    const context = await browser.newContext({ storageState });
    try {
      await context.addInitScript({ content: PROBE });
      const visit = await visitList(await context.newPage(), base);
      if (run >= BROWSER_WARMUP) cold.push(visit);
    } finally {
      await context.close();
    }
  }
  const warm: ListVisit[] = [];
  const context = await browser.newContext({ storageState });
  try {
    await context.addInitScript({ content: PROBE });
    const page = await context.newPage();
    for (let run = 0; run < BROWSER_WARMUP + BROWSER_RUNS; run += 1) {
      const visit = await visitList(page, base);
      if (run >= BROWSER_WARMUP) warm.push(visit);
    }
  } finally {
    await context.close();
  }

  const rows: BenchRow[] = [];
  for (const [label, visits] of [
    ["cold", cold],
    ["warm", warm],
  ] as const) {
    const row100 = stats(visits.map((visit) => visit.row100));
    const html = stats(visits.map((visit) => visit.responseEnd));
    const paint = stats(visits.map((visit) => visit.firstPaint));
    const shift = stats(visits.map((visit) => visit.layoutShift));
    const shifts = stats(visits.map((visit) => visit.shifts));
    rows.push(
      {
        suite,
        case: `browser ${LIST}: 100th row visible, ${label}, median`,
        value: row100.median,
        unit: "ms",
        note: `p95 ${ms(row100.p95)}, n=${row100.n}; medians: first paint ${ms(paint.median)}, HTML received ${ms(html.median)}`,
      },
      { suite, case: `browser ${LIST}: 100th row visible, ${label}, p95`, value: row100.p95, unit: "ms", note: `max ${ms(row100.max)}` },
      {
        suite,
        case: `browser ${LIST}: layout shift sum, ${label}, median`,
        value: shift.median,
        unit: "count",
        note: `unitless (CLS-style sum, to 100th row + ${SETTLE_MS} ms): median ${shift.median.toFixed(4)}, max ${shift.max.toFixed(4)}; ${shifts.median} shift entries (median)`,
      },
    );
  }
  return rows;
}

// ---- client JavaScript per page -----------------------------------------------------------------------

interface ScriptLoad {
  url: string;
  encoded: number;
  decoded: number;
  afterLoad: boolean;
}

async function scriptSize(response: Response, afterLoad: boolean): Promise<ScriptLoad> {
  const [sizes, body] = await Promise.all([response.request().sizes(), response.body()]);
  const length = Number(response.headers()["content-length"]);
  const encoded = sizes.responseBodySize > 0 ? sizes.responseBodySize : Number.isFinite(length) ? length : body.length;
  return { url: response.url(), encoded, decoded: body.length, afterLoad };
}

export async function clientJs(
  browser: Browser,
  base: string,
  storageState: Awaited<ReturnType<BrowserContext["storageState"]>>,
  pages: Array<{ path: string; signedIn: boolean }>,
): Promise<BenchRow[]> {
  progress(suite, `client JavaScript of ${pages.length} pages…`);
  const rows: BenchRow[] = [];
  const everyScript = new Map<string, ScriptLoad>();
  for (const { path, signedIn } of pages) {
    const context = await browser.newContext(signedIn ? { storageState } : {});
    try {
      const page = await context.newPage();
      const pending: Array<Promise<ScriptLoad | null>> = [];
      let loaded = false;
      // A body still unread when the context closes (an island fetched from the load event's handler) is left out,
      // never an unhandled rejection that ends the run.
      const onResponse = (response: Response) => {
        if (response.request().resourceType() === "script") pending.push(scriptSize(response, loaded).catch(() => null));
      };
      page.on("response", onResponse);
      const response = await page.goto(`${base}${path}`, { waitUntil: "load" });
      loaded = true;
      if (!response?.ok()) throw new Error(`GET ${path}: ${response?.status() ?? "no response"}`);
      if (new URL(page.url()).pathname !== path) throw new Error(`GET ${path} ended on ${page.url()}`);
      await page.waitForLoadState("networkidle");
      page.off("response", onResponse);
      const scripts = (await Promise.all(pending)).filter((script) => script !== null);
      const initial = scripts.filter((script) => !script.afterLoad);
      const later = scripts.filter((script) => script.afterLoad);
      for (const script of scripts) everyScript.set(script.url, script);
      const sum = (list: ScriptLoad[], key: "encoded" | "decoded") => list.reduce((total, script) => total + script[key], 0);
      const label = path.replace(/\/verifications\/[^/]+$/, "/verifications/<id>");
      // `next start` compresses with gzip, so what was transferred is the gzip size the goal speaks of.
      const gzipKb = sum(initial, "encoded") / 1000;
      const verdict = gzipKb <= CLIENT_JS_GOAL_KB ? "met" : `over by ${(gzipKb - CLIENT_JS_GOAL_KB).toFixed(1)} kB`;
      rows.push({
        suite,
        case: `client JS ${label}${signedIn ? "" : " (signed out)"}`,
        value: kib(sum(initial, "encoded")),
        unit: "KiB",
        note:
          `gzip transferred = ${gzipKb.toFixed(1)} kB, goal ≤ ${CLIENT_JS_GOAL_KB} kB: ${verdict}; ` +
          `${kib(sum(initial, "decoded")).toFixed(1)} KiB decoded, ${initial.length} scripts` +
          (later.length ? `; +${later.length} after load (${kib(sum(later, "encoded")).toFixed(1)} KiB transferred)` : ""),
      });
    } finally {
      await context.close();
    }
  }
  const all = [...everyScript.values()];
  rows.push({
    suite,
    case: "client JS, every distinct script of these pages",
    value: kib(all.reduce((total, script) => total + script.encoded, 0)),
    unit: "KiB",
    note: `transferred; ${kib(all.reduce((total, script) => total + script.decoded, 0)).toFixed(1)} KiB decoded, ${all.length} scripts`,
  });
  return rows;
}

// ---- the suite ----------------------------------------------------------------------------------------

export default async function benchPages(): Promise<BenchRow[]> {
  return withSystem(suite, async ({ base }) => {
    const analyst = await signIn(base, DEMO.analyst);
    const admin = await signIn(base, DEMO.admin);
    const id = await someVerificationId(base, analyst.header);
    const rows = [...(await serverRender(base, analyst.header)), await detailHtml(base, analyst.header, id)];

    const executablePath = findChromium();
    const browser = await chromium.launch({ executablePath, args: CHROMIUM_ARGS, headless: true });
    try {
      const host = new URL(base).hostname;
      const cookie = (who: { name: string; value: string }) => ({
        name: who.name,
        value: who.value,
        domain: host,
        path: "/",
        httpOnly: true,
        sameSite: "Lax" as const,
        expires: -1,
        secure: false,
      });
      rows.push(...(await listInBrowser(browser, base, { cookies: [cookie(analyst)], origins: [] })));
      rows.push(
        ...(await clientJs(browser, base, { cookies: [cookie(admin)], origins: [] }, [
          { path: "/sign-in", signedIn: false },
          { path: "/", signedIn: true },
          { path: "/verifications", signedIn: true },
          { path: "/cases", signedIn: true },
          { path: `/verifications/${encodeURIComponent(id)}`, signedIn: true },
          { path: "/lookups/cpf", signedIn: true },
          { path: "/kyc", signedIn: true },
          { path: "/admin/integrations", signedIn: true },
          { path: "/admin/staff", signedIn: true },
          { path: "/admin/audit", signedIn: true },
        ])),
      );
    } finally {
      await browser.close();
    }
    return rows;
  });
}
