import fs from "node:fs";
import path from "node:path";

import type { Browser, Page, Response } from "@playwright/test";

import { expect, serverSecrets, test } from "./fixtures";
import { filesUnder, signedInPages } from "./pages";

/*
 * The production build the browser tests run against must not carry a server secret in anything the
 * browser can download. The embedded default's secrets are the sandbox's demo credentials and the
 * generated session/sealing secrets; a secret that reaches a client component lands in these files.
 */

const distDir = path.resolve(process.env.NEXT_DIST_DIR ?? ".next");

test("no server secret is in the client bundle or the HTML of a page", async ({ adminPage }) => {
  const secrets = serverSecrets();

  const clientFiles = filesUnder(path.join(distDir, "static"));
  expect(clientFiles.length, "the build has client files").toBeGreaterThan(10);
  const hits: string[] = [];
  for (const file of clientFiles) {
    const text = fs.readFileSync(file, "latin1");
    for (const [name, value] of Object.entries(secrets)) if (text.includes(value)) hits.push(`${name} in ${path.relative(distDir, file)}`);
  }
  // Signed in as admin, so each page renders its real content (and any prop handed to a client component).
  for (const page of ["/sign-in", "/verifications", "/lookups/cpf", "/kyc", "/admin"]) {
    const response = await adminPage.request.get(page);
    expect(response.status(), page).toBe(200);
    const html = await response.text();
    for (const [name, value] of Object.entries(secrets)) if (html.includes(value)) hits.push(`${name} in the HTML of ${page}`);
  }
  expect(hits).toEqual([]);
});

/*
 * No validation library in the browser: forms and URL state check their input with plain rule functions
 * (each feature's rules.ts, lib/shared/, lib/upstream/model/verification-query.ts, lib/audit-trail/filters.ts), and only the server wraps
 * them in zod. zod's error class names itself "ZodError" ("$ZodError" in its core) and its issue codes
 * include "invalid_format": strings no code of this app writes, present in any build of zod, classic or mini.
 */
const ZOD_MARKERS = ["ZodError", "invalid_format"];

const zodIn = (text: string) => ZOD_MARKERS.filter((marker) => text.includes(marker));

/** Every script the page loads while it opens (and settles), by URL with its text. */
async function scriptsOf(page: Page, path: string): Promise<Map<string, string>> {
  const scripts = new Map<string, string>();
  const pending: Array<Promise<void>> = [];
  const onResponse = (response: Response) => {
    if (response.request().resourceType() !== "script") return;
    pending.push(
      response.text().then(
        (text) => void scripts.set(response.url(), text),
        () => undefined,
      ),
    );
  };
  page.on("response", onResponse);
  try {
    const response = await page.goto(path);
    expect(response?.status(), path).toBe(200);
    await page.waitForLoadState("networkidle");
    await Promise.all(pending);
  } finally {
    page.off("response", onResponse);
  }
  return scripts;
}

test("no script served to any page carries zod, and no client chunk of the build does", async ({ browser, adminPage }) => {
  const hits: string[] = [];
  const check = (where: string, scripts: Map<string, string>) => {
    expect(scripts.size, `${where} loads scripts`).toBeGreaterThan(0);
    for (const [url, text] of scripts) for (const marker of zodIn(text)) hits.push(`${marker} in ${new URL(url).pathname} (${where})`);
  };

  const signedOut = await browser.newContext();
  try {
    check("/sign-in", await scriptsOf(await signedOut.newPage(), "/sign-in"));
  } finally {
    await signedOut.close();
  }
  // Signed in as admin: every page of the navigation, and a verification's detail.
  const pages = ["/", "/verifications", "/cases", "/lookups/cpf", "/kyc", "/admin/integrations", "/admin/staff", "/admin/audit"];
  for (const route of pages) check(route, await scriptsOf(adminPage, route));
  await adminPage.goto("/verifications");
  const detail = await adminPage.getByRole("main").locator('a[href^="/verifications/"]').first().getAttribute("href");
  expect(detail, "the list links a verification").toBeTruthy();
  check("a verification", await scriptsOf(adminPage, detail!));

  // Chunks loaded later (a dialog's body, a route prefetched on hover) are in the build's static folder.
  const chunks = filesUnder(path.join(distDir, "static")).filter((file) => file.endsWith(".js"));
  expect(chunks.length, "the build has client chunks").toBeGreaterThan(10);
  for (const file of chunks)
    for (const marker of zodIn(fs.readFileSync(file, "utf8"))) hits.push(`${marker} in ${path.relative(distDir, file)}`);
  expect(hits).toEqual([]);
});

/*
 * Issue 37: each signed-in page's first load (the scripts it fetches before the load event, gzip as `next start`
 * sends them: the figure `npm run bench -- pages` reports) stays under a ceiling. Every page of the signed-in app is
 * visited, found from app/(dashboard)'s page files (a new page is held to it without being listed here): the goal,
 * 150 kB, where it is met; the pages still over it have their own ceiling below, a little above what they measure, so
 * a page only grows with a reason. The framework alone (React, Next's router, next-intl) is about 140 kB of it: the
 * sign-in page, with its form, is 148.8 kB.
 */
const FIRST_LOAD_GOAL_KB = 150;
// Measured (next build + next start, admin) plus 2 kB, rounded up. The pages that read no query (the overview,
// analytics, the administration's index, "not allowed": 148.6–149.3 kB) are the framework and the shell, under the
// goal; the forms' pages (/kyc, /lookups/cpf) add their own components (about 7 kB), and so do the pages drawn by the
// server (the audit log's filters, 156.5 kB; the routing editor, 156.2 kB; the list, 159.5 kB; the case queue's table,
// keys and bulk bar, 159.7 kB); the detail (196.0 kB, its evidence drawn by the server) adds react-query for its decision
// panel (about 15 kB), the panel, the images with zoom and crop, the record lookup and the same person's panel.
const FIRST_LOAD_CEILING_KB: Record<string, number> = {
  "/account": 162,
  "/admin/audit": 159,
  "/admin/cases": 159,
  "/admin/connections": 159,
  "/admin/integrations": 162,
  "/admin/privacy": 165,
  "/admin/roles": 159,
  "/admin/staff": 162,
  "/cases": 162,
  "/compliance/coaf": 158,
  "/kyc": 159,
  "/lookups/cpf": 159,
  "/verifications": 162,
  "/verifications/[publicId]": 198,
};

interface FirstLoad {
  kB: number;
  scripts: Map<string, string>;
  html: string;
}

/**
 * The scripts `route` fetches before its load event (gzip kB transferred, and their text), and its HTML. Which scripts
 * started before the load event is the browser's own record (Resource Timing against the navigation's
 * `loadEventStart`), not the order in which the test hears of responses: an island fetched from the load event's
 * handler is never counted, however fast it answers.
 */
async function firstLoad(page: Page, route: string): Promise<FirstLoad> {
  const pending: Array<Promise<{ url: string; encoded: number; text: string } | null>> = [];
  const onResponse = (response: Response) => {
    if (response.request().resourceType() !== "script") return;
    pending.push(
      Promise.all([response.request().sizes(), response.text()]).then(
        ([sizes, text]) => ({ url: response.url(), encoded: sizes.responseBodySize, text }),
        () => null,
      ),
    );
  };
  page.on("response", onResponse);
  let html = "";
  let beforeLoad: string[] = [];
  try {
    const response = await page.goto(route, { waitUntil: "load" });
    expect(response?.status(), route).toBe(200);
    expect(new URL(page.url()).pathname, `${route} is not redirected`).toBe(route);
    html = (await response?.text()) ?? "";
    await page.waitForLoadState("networkidle");
    beforeLoad = await page.evaluate(() => {
      const [navigation] = performance.getEntriesByType("navigation") as PerformanceNavigationTiming[];
      const loadStart = navigation?.loadEventStart ?? 0;
      return performance
        .getEntriesByType("resource")
        .filter((entry) => entry.startTime < loadStart)
        .map((entry) => entry.name);
    });
  } finally {
    page.off("response", onResponse);
  }
  expect(beforeLoad.length, `${route}: the browser recorded the resources it loaded`).toBeGreaterThan(0);
  const started = new Set(beforeLoad);
  const scripts = (await Promise.all(pending)).filter((script) => script !== null && started.has(script.url));
  return {
    kB: scripts.reduce((total, script) => total + script!.encoded, 0) / 1000,
    scripts: new Map(scripts.map((script) => [script!.url, script!.text])),
    html,
  };
}

// react-query's code names its provider in the error its hook throws without one; a dehydrated cache carries `dehydratedAt`.
const REACT_QUERY_MARKER = "No QueryClient set";
const DEHYDRATED_MARKER = "dehydratedAt";

/** A page of a new context with `signedIn`'s session: an empty cache, so every script counts as the first visit's. */
async function freshPage(browser: Browser, signedIn: Page): Promise<Page> {
  const context = await browser.newContext({ storageState: await signedIn.context().storageState() });
  return context.newPage();
}

/*
 * Over every signed-in page, found from the page files: its first load stays under its ceiling, and it loads
 * react-query's code only with a cache of its own to hydrate (a dehydrated cache in its HTML). A new page drawn on the
 * server that pulled react-query into its first load through an import fails here without this test naming it.
 */
test("every signed-in page's first load stays under its client JavaScript ceiling, with react-query only beside its cache", async ({
  browser,
  adminPage,
}) => {
  test.setTimeout(240_000);
  await adminPage.goto("/verifications");
  const detail = await adminPage.getByRole("main").locator('a[href^="/verifications/"]').first().getAttribute("href");
  expect(detail, "the list links a verification").toBeTruthy();
  const pages = signedInPages();
  expect(pages, "the page files are found").toContain("/");
  const over: string[] = [];
  const cacheless: string[] = [];
  for (const route of pages) {
    const url = route.includes("[") ? new URL(detail!, "http://x").pathname : route;
    const page = await freshPage(browser, adminPage);
    const { kB, scripts, html } = await firstLoad(page, url).finally(() => page.context().close());
    const ceiling = FIRST_LOAD_CEILING_KB[route] ?? FIRST_LOAD_GOAL_KB;
    if (kB > ceiling) over.push(`${route}: ${kB.toFixed(1)} kB > ${ceiling} kB`);
    const loadsReactQuery = [...scripts.values()].some((text) => text.includes(REACT_QUERY_MARKER));
    if (loadsReactQuery && !html.includes(DEHYDRATED_MARKER)) cacheless.push(route);
  }
  expect(over).toEqual([]);
  // A form's request keeps its answer without a cache (lib/shared/api-client/use-request.ts); a list the page shows is
  // read on the server, drawn there or hydrated into the cache its hooks read.
  expect(cacheless.sort(), "pages loading react-query in their first load with no cache to hydrate").toEqual([]);
});

/*
 * A page that reads no query loads no client data cache: none of react-query's code before its load event (the shell's
 * islands that use it, the bell, the nav's saved views, "Away", fetch theirs after), and no dehydrated cache in its
 * HTML. react-query's code names its provider in the error its hook throws without one; a dehydrated cache carries
 * `dehydratedAt`. Every signed-in page is opened, found from the page files (a new page is held to it without being
 * listed here), but those that still hydrate a cache for their hooks: the verification's detail, which shows the
 * markers are there to find. The lists, the queue and the administration are drawn on the server; their islands that
 * use react-query (an export, the live notice, the Monitoring queue, the team's templates) bring it after the load.
 */
const PAGES_WITH_A_CACHE = ["/verifications/[publicId]"];

test("a signed-in page that reads no query carries no client data cache in its first load", async ({ browser, adminPage }) => {
  const routes = signedInPages().filter((route) => !PAGES_WITH_A_CACHE.includes(route));
  expect(routes, "the page files are found").toContain("/cases");
  // Each page is opened cold and waited for until the network is idle: a few seconds each on a busy 2-core machine, so
  // the budget grows with the list (the project's 60 s ran out at 12 pages in a clean-clone run).
  test.setTimeout(30_000 + (routes.length + 2) * 15_000);
  await adminPage.goto("/verifications");
  const detail = await adminPage.getByRole("main").locator('a[href^="/verifications/"]').first().getAttribute("href");
  expect(detail, "the list links a verification").toBeTruthy();
  for (const route of routes) {
    const page = await freshPage(browser, adminPage);
    const { scripts, html } = await firstLoad(page, route);
    const carrying = [...scripts].filter(([, text]) => text.includes(REACT_QUERY_MARKER)).map(([url]) => new URL(url).pathname);
    expect(carrying, `${route}: scripts with react-query`).toEqual([]);
    expect(html.includes(DEHYDRATED_MARKER), `${route}: a dehydrated cache in the HTML`).toBe(false);
    // The bell still comes once the page has loaded, with its code.
    await expect(page.getByTestId("notification-bell")).toBeEnabled();
    await page.context().close();
  }
  const page = await freshPage(browser, adminPage);
  const withCache = await firstLoad(page, new URL(detail!, "http://x").pathname);
  expect([...withCache.scripts.values()].some((text) => text.includes(REACT_QUERY_MARKER))).toBe(true);
  expect(withCache.html).toContain(DEHYDRATED_MARKER);
});

/*
 * A verification's page is drawn on the server: its evidence (the header, the steps) is there with no script at all,
 * and the verification reaches the browser once, as that markup, never also as data (the service's field names, in a
 * dehydrated cache or a client component's props). The detail route's answer, which the page no longer reads, shows
 * the marker is there to find.
 */
const STEPS_AS_DATA = /\\*"steps\\*":\[/;

test("a verification's page draws its evidence on the server and sends the verification once", async ({ browser, adminPage }) => {
  await adminPage.goto("/verifications");
  const href = await adminPage.getByRole("main").locator('a[href^="/verifications/"]').first().getAttribute("href");
  const route = new URL(href!, "http://x").pathname;
  const publicId = decodeURIComponent(route.split("/").pop()!);
  const context = await browser.newContext({ storageState: await adminPage.context().storageState(), javaScriptEnabled: false });
  const page = await context.newPage();
  const response = await page.goto(route);
  expect(response?.status()).toBe(200);
  await expect(page.getByRole("heading", { level: 1 })).toContainText(publicId);
  await expect(page.getByRole("heading", { name: "Steps", exact: true })).toBeVisible();
  expect(STEPS_AS_DATA.test(await response!.text()), "the verification's steps as data in the page's HTML").toBe(false);
  await context.close();
  const answer = await adminPage.request.get(`/api/verifications/${encodeURIComponent(publicId)}`);
  expect(answer.status()).toBe(200);
  expect(STEPS_AS_DATA.test(await answer.text()), "the steps as data in the route's answer").toBe(true);
});

/*
 * The shell's own requests (the top bar's search, signing out, the step-up's methods) load the API client when they
 * are used: a page whose own code sends nothing carries none of it before its load event. The client names its network
 * failure in words no other module has. The search still works once the page has loaded (its request brings the
 * client), and the integration keys page, whose islands send requests, shows the marker is there to find.
 */
const API_CLIENT_MARKER = "The dashboard could not be reached.";

test("a page whose own code sends no request loads the API client only when the shell first sends one", async ({ browser, adminPage }) => {
  for (const route of ["/admin", "/not-allowed"]) {
    const page = await freshPage(browser, adminPage);
    const { scripts } = await firstLoad(page, route);
    const carrying = [...scripts].filter(([, text]) => text.includes(API_CLIENT_MARKER)).map(([url]) => new URL(url).pathname);
    expect(carrying, `${route}: scripts with the API client`).toEqual([]);
    if (route === "/admin") {
      const search = page.getByRole("search");
      await search.getByLabel("Search by").selectOption("ref_id");
      await search.getByRole("textbox").fill(`no-such-ref-${Date.now()}`);
      await search.getByRole("button").click();
      await expect(page.getByText("No verification found.", { exact: false })).toBeVisible();
    }
    await page.context().close();
  }
  const page = await freshPage(browser, adminPage);
  const keys = await firstLoad(page, "/admin/integrations");
  expect([...keys.scripts.values()].some((text) => text.includes(API_CLIENT_MARKER))).toBe(true);
  await page.context().close();
});
