// The "next case" benchmark (run by `npm run bench -- next-case`; not a test: it reports figures, it asserts
// nothing).
//
// An analyst works the open queue in Chromium (playwright-core, headless, the browser tests' Chromium and flags)
// against the production build: the case page of the queue's first case, then "next" again and again. Each step
// waits BENCH_NEXT_CASE_DWELL_MS on the case (the analyst reading it, default 3 s) once its images are shown, then
// clicks the decision panel's "next" link. Timed in the page, from the click event to both images of the face
// comparison (selfie and document) of the next case loaded, decoded and painted (the frame after `img.decode()`),
// median of the runs. Also reported: the click to the new page committed (its address in the location bar), and
// how many image bytes (`/api/media/…` requests), case reads and image-token reads the browser still asked for
// after the click.
// A step whose next case lacks one of the two images is not a sample (the queue's next one is tried).
//
// The queue is the sandbox's review verifications, opened as cases by a sync asked for at the start.
//
//   BENCH_NEXT_CASE_RUNS=30 BENCH_NEXT_CASE_DWELL_MS=5000 npm run bench -- next-case --no-write
import { chromium, type Page } from "playwright-core";

import type { BenchRow } from "./bench";
import { DEMO, fetchText, progress, signIn, stats, withSystem } from "./bench-system";
import { CHROMIUM_ARGS, findChromium } from "./browser.mjs";

const suite = "next-case";
const WARMUP = 2;
const RUNS = Number(process.env.BENCH_NEXT_CASE_RUNS ?? 15);
const DWELL_MS = Number(process.env.BENCH_NEXT_CASE_DWELL_MS ?? 3000);
/** The performance issue's goal: "next case" to both images on screen. */
const GOAL_MS = 150;
/** The queue worked: every open case, in the queue's default order. */
const CONTEXT = "queue=open";

const ms = (value: number) => `${value.toFixed(1)} ms`;

/**
 * Runs in the page before its own scripts. `arm(path)` starts watching: the first click or key press after it is
 * the start; the end is the frame after both face-comparison images of the case at `path` are decoded. Plain
 * JavaScript text rather than a function: tsx compiles functions with a `__name` helper the page lacks.
 */
const PROBE = `(() => {
  const probe = { armed: false, target: "", id: "", startAt: null, committedAt: null, doneAt: null, skipped: false };
  window.__nextCaseProbe = probe;
  const start = (event) => {
    if (probe.armed && probe.startAt === null) probe.startAt = event.timeStamp;
  };
  document.addEventListener("click", start, true);
  document.addEventListener("keydown", start, true);
  const KEYS = ["selfie", "document_front"];
  function frame() {
    if (!probe.armed) return;
    if (probe.startAt !== null && location.pathname === probe.target) {
      if (probe.committedAt === null) probe.committedAt = performance.now();
      const section = document.querySelector("main section[aria-labelledby=faces-heading]");
      if (section && section.querySelector("[data-face-frame=missing]")) {
        probe.armed = false;
        probe.skipped = true;
        return;
      }
      const images = KEYS.map((key) => section && section.querySelector('[data-face-frame="' + key + '"] img'));
      if (images.every((img) => img && img.alt.includes(probe.id) && img.complete && img.naturalWidth > 0)) {
        probe.armed = false;
        Promise.all(images.map((img) => img.decode().catch(() => undefined))).then(() =>
          requestAnimationFrame(() => { probe.doneAt = performance.now(); }),
        );
        return;
      }
    }
    requestAnimationFrame(frame);
  }
  probe.arm = (target, id) => {
    Object.assign(probe, { armed: true, target, id, startAt: null, committedAt: null, doneAt: null, skipped: false });
    requestAnimationFrame(frame);
  };
})();`;

interface ProbeState {
  armed: boolean;
  startAt: number | null;
  committedAt: number | null;
  doneAt: number | null;
  skipped: boolean;
  arm(target: string, id: string): void;
}

interface Step {
  total: number;
  committed: number;
  imageRequests: number;
  caseReads: number;
}

/** Both face-comparison images of the case on screen (a missing one counts as shown: nothing more will come). */
async function imagesShown(page: Page): Promise<void> {
  const section = page.locator("main section[aria-labelledby=faces-heading]");
  await section.waitFor({ timeout: 30_000 });
  await page.waitForFunction(
    () => {
      const faces = document.querySelector("main section[aria-labelledby=faces-heading]");
      if (!faces) return false;
      const images = [...faces.querySelectorAll<HTMLImageElement>("[data-face-frame] img")];
      return images.every((img) => img.complete);
    },
    undefined,
    { timeout: 30_000 },
  );
}

/** The decision panel's "next" link: the case's id and address, or null at the queue's end. */
async function nextCase(page: Page): Promise<{ id: string; path: string } | null> {
  const panel = page.locator("main [data-testid=decision-panel]");
  await panel.locator("[data-testid=case-back]").waitFor({ timeout: 30_000 });
  const link = panel.locator("a[rel=next]");
  if ((await link.count()) === 0) return null;
  const href = await link.getAttribute("href");
  if (!href) return null;
  const path = new URL(href, "http://x").pathname;
  return { id: decodeURIComponent(path.split("/").pop() ?? ""), path };
}

async function step(page: Page, requests: string[]): Promise<Step | "skipped" | "end"> {
  const next = await nextCase(page);
  if (!next) return "end";
  // Functions handed to the page cannot call this module's: each reads the probe itself.
  await page.evaluate(
    ([target, id]) => (window as unknown as { __nextCaseProbe: ProbeState }).__nextCaseProbe.arm(target!, id!),
    [next.path, next.id],
  );
  requests.length = 0;
  await page.locator("main [data-testid=decision-panel] a[rel=next]").click();
  await page.waitForFunction(
    () => {
      const probe = (window as unknown as { __nextCaseProbe: ProbeState }).__nextCaseProbe;
      return !probe.armed && (probe.skipped || probe.doneAt !== null);
    },
    undefined,
    { timeout: 30_000 },
  );
  const probe = await page.evaluate(() => {
    const { startAt, committedAt, doneAt, skipped } = (window as unknown as { __nextCaseProbe: ProbeState }).__nextCaseProbe;
    return { startAt, committedAt, doneAt, skipped };
  });
  // Whatever else the new page shows (the other images, the timeline) settles before the analyst reads it.
  await imagesShown(page);
  if (probe.skipped || probe.startAt === null || probe.doneAt === null || probe.committedAt === null) return "skipped";
  const after = [...requests];
  return {
    total: probe.doneAt - probe.startAt,
    committed: probe.committedAt - probe.startAt,
    imageRequests: after.filter((url) => url.startsWith("/api/media/")).length,
    caseReads: after.filter((url) => url === `/api/cases/${next.id}` || url === `/api/verifications/${next.id}/media`).length,
  };
}

export default async function benchNextCase(): Promise<BenchRow[]> {
  return withSystem(suite, async ({ base }) => {
    const analyst = await signIn(base, DEMO.analyst);
    const admin = await signIn(base, DEMO.admin);
    progress(suite, "opening the sandbox's review verifications as cases (POST /api/cases/sync)…");
    await fetchText(`${base}/api/cases/sync`, { method: "POST", headers: { cookie: admin.header, origin: base } });
    const queue = JSON.parse(await fetchText(`${base}/api/cases?${CONTEXT}&per_page=1`, { headers: { cookie: analyst.header } })) as {
      items: Array<{ publicId: string }>;
      total: number;
    };
    const first = queue.items[0]?.publicId;
    if (!first) throw new Error("the open queue is empty: no case to work");
    progress(suite, `${queue.total} open cases; ${WARMUP} warm-up + ${RUNS} "next" steps, ${DWELL_MS} ms on each case…`);

    const browser = await chromium.launch({ executablePath: findChromium(), args: CHROMIUM_ARGS, headless: true });
    const samples: Step[] = [];
    let skipped = 0;
    try {
      const context = await browser.newContext({
        viewport: { width: 1440, height: 900 },
        storageState: {
          cookies: [
            {
              name: analyst.name,
              value: analyst.value,
              domain: new URL(base).hostname,
              path: "/",
              httpOnly: true,
              sameSite: "Lax",
              expires: -1,
              secure: false,
            },
          ],
          origins: [],
        },
      });
      await context.addInitScript({ content: PROBE });
      const page = await context.newPage();
      const requests: string[] = [];
      page.on("request", (request) => {
        const url = new URL(request.url());
        if (url.pathname.startsWith("/api/")) requests.push(url.pathname);
      });
      await page.goto(`${base}/verifications/${encodeURIComponent(first)}?${new URLSearchParams({ cases: CONTEXT }).toString()}`);
      await imagesShown(page);
      let steps = 0;
      while (samples.length < RUNS) {
        await page.waitForTimeout(DWELL_MS);
        const result = await step(page, requests);
        if (result === "end") break;
        steps += 1;
        if (result === "skipped") skipped += 1;
        else if (steps > WARMUP) samples.push(result);
        else continue;
        progress(suite, result === "skipped" ? "  (next case without both images: not a sample)" : `  ${ms(result.total)}`);
      }
      await context.close();
    } finally {
      await browser.close();
    }
    if (samples.length === 0) throw new Error("no next case with both images in the open queue");
    const total = stats(samples.map((sample) => sample.total));
    const committed = stats(samples.map((sample) => sample.committed));
    const images = stats(samples.map((sample) => sample.imageRequests));
    const reads = stats(samples.map((sample) => sample.caseReads));
    const verdict = total.median <= GOAL_MS ? "met" : `over by ${(total.median - GOAL_MS).toFixed(0)} ms`;
    return [
      {
        suite,
        case: `"next" to both images on screen, median`,
        value: total.median,
        unit: "ms",
        note: `goal ≤ ${GOAL_MS} ms: ${verdict}; p95 ${ms(total.p95)}, min ${ms(total.min)}, n=${total.n}, ${DWELL_MS} ms on each case${skipped ? `, ${skipped} steps without both images left out` : ""}`,
      },
      {
        suite,
        case: `"next" to the next case's page committed, median`,
        value: committed.median,
        unit: "ms",
        note: `p95 ${ms(committed.p95)}: the navigation's share of the figure above`,
      },
      {
        suite,
        case: `image requests after "next", median`,
        value: images.median,
        unit: "count",
        note: `max ${images.max}; /api/media/… asked for once the analyst clicked (0: every image was already in memory)`,
      },
      {
        suite,
        case: `case and image-token reads after "next", median`,
        value: reads.median,
        unit: "count",
        note: `max ${reads.max}; /api/cases/{id} and /api/verifications/{id}/media asked for once the analyst clicked`,
      },
    ];
  });
}
