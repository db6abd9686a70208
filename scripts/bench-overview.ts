// The overview benchmark (run by `npm run bench -- overview`; not a test: it reports figures).
//
//   - Upstream calls per overview view: a cold view of 31 days (the longest period) counted by the dashboard's
//     own counters (GET /api/upstream/calls) and by the sandbox's request log; then the sandbox's log cleared, one
//     view of `/` (the default 30 days), the list calls counted; then the same view again within the cache's lifetime.
//   - Server render of the overview, full HTML with a signed-in session: "uncached" views each ask for a
//     30-day window no earlier view asked for (windows stepping back 30 days at a time, so no count is
//     in the cache); "cached" views repeat one window already seen.
//   - Client JavaScript of `/` and `/verifications` (the pages suite's measure).
//
//   BENCH_OVERVIEW_RUNS=20 npm run bench -- overview
import { chromium } from "playwright-core";

import type { BenchRow } from "./bench";
import { clientJs } from "./bench-pages";
import { DEMO, fetchText, progress, signIn, stats, timed, withSystem } from "./bench-system";
import { CHROMIUM_ARGS, findChromium } from "./browser.mjs";

const suite = "overview";
const RUNS = Number(process.env.BENCH_OVERVIEW_RUNS ?? 10);
const DAY_MS = 86_400_000;
const ms = (value: number) => `${value.toFixed(1)} ms`;

function saoPauloDay(offsetDays: number): string {
  return new Intl.DateTimeFormat("en-CA", { timeZone: "America/Sao_Paulo" }).format(new Date(Date.now() + offsetDays * DAY_MS));
}

async function listCalls(sandbox: string): Promise<number> {
  const log = (await (await fetch(`${sandbox}/sandbox/requests`)).json()) as { requests: Array<{ path: string }> };
  return log.requests.filter((request) => request.path.endsWith("/public/validations-persons")).length;
}

export default async function benchOverview(): Promise<BenchRow[]> {
  return withSystem(suite, async ({ base, sandbox }) => {
    const analyst = await signIn(base, DEMO.analyst);
    const view = async (path: string) => {
      const response = await fetch(`${base}${path}`, { headers: { cookie: analyst.header }, redirect: "manual" });
      const html = await response.text();
      if (response.status !== 200 || !html.includes('data-testid="overview-period"')) throw new Error(`GET ${path}: ${response.status}`);
    };
    const rows: BenchRow[] = [];

    progress(suite, "upstream calls per view…");
    // The dashboard's own counters (GET /api/upstream/calls, as an admin reads them): a cold view of the longest
    // period, 31 days; the sandbox's request log says the same from the other side.
    const admin = await signIn(base, DEMO.admin);
    const pageCalls = async () => {
      const report = JSON.parse(await fetchText(`${base}/api/upstream/calls`, { headers: { cookie: admin.header } })) as {
        rows: Array<{ source: string; week: number }>;
      };
      return report.rows.filter((row) => row.source === "page /").reduce((sum, row) => sum + row.week, 0);
    };
    const counted = await pageCalls();
    await fetch(`${sandbox}/sandbox/requests`, { method: "DELETE" });
    await view(`/?from=${saoPauloDay(-30)}&to=${saoPauloDay(0)}`);
    const cold31 = (await pageCalls()) - counted;
    const logged31 = await listCalls(sandbox);
    rows.push({
      suite,
      case: "upstream calls per view of / (31 days), cache empty, counted by the dashboard",
      value: cold31,
      unit: "count",
      note: `the sandbox logged ${logged31}; goal ≤ 20`,
    });
    await fetch(`${sandbox}/sandbox/requests`, { method: "DELETE" });
    await view("/");
    const cold = await listCalls(sandbox);
    await fetch(`${sandbox}/sandbox/requests`, { method: "DELETE" });
    await view("/");
    const warm = await listCalls(sandbox);
    rows.push(
      {
        suite,
        case: "upstream calls per view of / (30 days), cache empty",
        value: cold,
        unit: "count",
        note: "the service's totals (5 statuses + 1) and the pages of the days the status mirror had not read whole (lib/overview/server/mirror.ts)",
      },
      { suite, case: "upstream calls per view of / (30 days), within the cache's 60 s", value: warm, unit: "count" },
    );

    progress(suite, `server render: ${RUNS} uncached + ${RUNS} cached views…`);
    const window = (k: number) => `/?from=${saoPauloDay(-30 * (k + 1) + 1)}&to=${saoPauloDay(-30 * k)}`;
    const uncached: number[] = [];
    for (let k = 1; k <= RUNS; k += 1) uncached.push(await timed(() => view(window(k))));
    await view(window(0));
    const cached: number[] = [];
    for (let run = 0; run < RUNS; run += 1) cached.push(await timed(() => view(window(0))));
    for (const [label, values] of [
      ["counts cache empty, days not yet mirrored", uncached],
      ["cached counts", cached],
    ] as const) {
      const s = stats(values);
      rows.push({
        suite,
        case: `server render of / (30 days), ${label}, median`,
        value: s.median,
        unit: "ms",
        note: `p95 ${ms(s.p95)}, n=${s.n}`,
      });
    }

    const browser = await chromium.launch({ executablePath: findChromium(), args: CHROMIUM_ARGS, headless: true });
    try {
      const cookie = {
        name: analyst.name,
        value: analyst.value,
        domain: new URL(base).hostname,
        path: "/",
        httpOnly: true,
        sameSite: "Lax" as const,
        expires: -1,
        secure: false,
      };
      const js = await clientJs(browser, base, { cookies: [cookie], origins: [] }, [
        { path: "/", signedIn: true },
        { path: "/verifications", signedIn: true },
      ]);
      rows.push(...js.map((row) => ({ ...row, suite })));
    } finally {
      await browser.close();
    }
    return rows;
  });
}
