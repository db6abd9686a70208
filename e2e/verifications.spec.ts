import fs from "node:fs";
import path from "node:path";

import type { Page, Response } from "@playwright/test";
import { sealData, unsealData } from "iron-session";

import { baseURL } from "@/playwright.config";

import { createVerification, expect, SAME_ORIGIN, sandbox, test } from "./fixtures";

/*
 * The verification review in a real browser, against a production build and the sandbox (embedded
 * default key `sbx_core_view_media`: view and media, masked data).
 */

interface ListAnswer {
  items: Array<{ publicId: string; status: string; createdAt?: string }>;
  pagination: { page: number; perPage: number; total: number };
}

const DAY_MS = 86_400_000;

/** A calendar day in São Paulo (the display time zone), `days` from today. */
function saoPauloDay(days: number): string {
  return new Intl.DateTimeFormat("en-CA", { timeZone: "America/Sao_Paulo" }).format(new Date(Date.now() + days * DAY_MS));
}

async function inEnglish(page: Page): Promise<void> {
  await page.context().addCookies([{ name: "NEXT_LOCALE", value: "en", url: baseURL }]);
}

/** Every text answer the browser receives, to search for the signed-URL address afterwards. */
function recordResponses(page: Page) {
  const seen: Array<{ url: string; body: string }> = [];
  const pending: Array<Promise<void>> = [];
  page.on("response", (response: Response) => {
    const type = response.headers()["content-type"] ?? "";
    const location = response.headers()["location"] ?? "";
    seen.push({ url: response.url(), body: location });
    // The live stream never ends: its body cannot be awaited (its frames hold topics and ids only).
    if (/json|html|javascript|text|x-component/.test(type) && !type.includes("text/event-stream")) {
      pending.push(
        response
          .text()
          .then((body) => void seen.push({ url: response.url(), body }))
          .catch(() => undefined),
      );
    }
  });
  return async () => {
    await Promise.all(pending);
    return seen;
  };
}

const rows = (page: Page) => page.locator("table tbody tr");
/** The filters are folded by default (rows first): open them. */
const openFilters = async (page: Page) => {
  const details = page.locator("details[data-filters]");
  if (!(await details.evaluate((element: HTMLDetailsElement) => element.open))) await details.locator("summary").click();
};

test.beforeEach(async ({ analystPage }) => {
  await inEnglish(analystPage);
});

test("filters by status and date range: only matching rows, and Back/Forward walk through the views", async ({ analystPage: page }) => {
  await page.goto("/verifications");
  await expect(rows(page).first()).toBeVisible();
  const from = saoPauloDay(-30);
  const to = saoPauloDay(0);

  await openFilters(page);
  await page.getByRole("checkbox", { name: "In review" }).check();
  await page.getByLabel("From").fill(from);
  await page.getByLabel("To").fill(to);
  const answered = page.waitForResponse(
    (response) => response.url().includes("/api/verifications?") && response.url().includes("status=review"),
  );
  await page.getByRole("button", { name: "Apply filters" }).click();
  const list = (await (await answered).json()) as ListAnswer;

  await expect(page).toHaveURL(new RegExp(`status=review.*from=${from}.*to=${to}`));
  await expect(rows(page)).toHaveCount(list.items.length);
  expect(list.items.length).toBeGreaterThan(0);
  await expect(page.locator("table[aria-busy]")).toHaveCount(0);
  for (const row of await rows(page).all()) await expect(row.locator("td").nth(1)).toHaveText(/In review/);
  // Inclusive days in America/Sao_Paulo (UTC-3).
  const start = Date.parse(`${from}T00:00:00-03:00`);
  const end = Date.parse(`${to}T23:59:59.999-03:00`);
  for (const item of list.items) {
    expect(item.status).toBe("review");
    const created = Date.parse(item.createdAt!);
    expect(created).toBeGreaterThanOrEqual(start);
    expect(created).toBeLessThanOrEqual(end);
  }

  await page.goBack();
  await expect(page).toHaveURL(/\/verifications$/);
  await expect(page.getByRole("checkbox", { name: "In review" })).not.toBeChecked();
  await expect(rows(page).locator("td:nth-of-type(2)").filter({ hasNotText: "In review" }).first()).toBeVisible();
  await page.goForward();
  await expect(page).toHaveURL(/status=review/);
  await expect(page.getByRole("checkbox", { name: "In review" })).toBeChecked();
  await expect(rows(page)).toHaveCount(list.items.length);
});

test("a verification shows its steps, scores, notices and both images through /api/media, never the signed URL", async ({
  analystPage: page,
}) => {
  const responses = recordResponses(page);
  await page.goto("/verifications?status=review&per_page=50");
  // A review whose liveness was approved (so it has a selfie) and that OCR or facematch held, with a notice.
  const answer = (await (await page.request.get("/api/verifications?status=review&per_page=50")).json()) as {
    items: Array<{ publicId: string; steps: Array<{ name: string; state: string; notices: unknown[] }> }>;
  };
  const target = answer.items.find((item) => item.steps.some((step) => step.name === "liveness" && step.state === "approved"))!;
  await page.getByRole("link", { name: `Open verification ${target.publicId}` }).click();
  // The list's filters travel with the detail (back link, previous/next).
  await expect(page).toHaveURL(new RegExp(`/verifications/${target.publicId}\\?list=`));

  await expect(page.getByRole("heading", { level: 1 })).toContainText(target.publicId);
  const steps = page.locator("article[data-step]");
  await expect(steps).toHaveCount(3);
  await expect(steps.locator("h3")).toHaveText(["OCR", "Liveness", "Facematch"]);
  await expect(page.getByRole("meter", { name: "Identity score" })).toHaveAttribute("aria-valuenow", /\d/);
  await expect(page.getByRole("meter", { name: "Risk score" })).toHaveAttribute("aria-valuenow", /\d/);
  // The facematch step's own meter (the face comparison shows the same similarity beside the pictures).
  const facematch = page.locator("article[data-step=facematch]");
  await expect(facematch.getByRole("meter", { name: "Similarity" })).toBeVisible();
  await expect(facematch.getByText("80 % validity line")).toBeVisible();
  await expect(page.locator("article[data-step] li").first()).toBeVisible();
  await expect(page.getByRole("heading", { name: "PEP and restrictive lists" })).toBeVisible();

  // Masked: the embedded default key lacks the unmasked permission.
  await expect(page.getByTestId("masked-marker")).toBeVisible();
  await expect(page.getByTestId("masked-marker")).toContainText("Masked data");

  for (const name of ["Selfie", "Document (back)"]) {
    const image = page.getByRole("img", { name: new RegExp(`^${name.replace(/[()]/g, "\\$&")} of verification`) });
    await expect(image).toHaveAttribute("src", /^\/api\/media\//);
    await expect.poll(() => image.evaluate((element: HTMLImageElement) => element.complete && element.naturalWidth > 0)).toBe(true);
  }
  // Zoom and rotate with the keyboard (the selfie is in the face comparison; the back of the document here).
  const backBox = page.getByRole("group", { name: "Image controls for Document (back)" });
  await backBox.focus();
  await page.keyboard.press("+");
  await page.keyboard.press("r");
  await expect(page.getByText("Zoom 150 %, rotated 90°")).toBeVisible();

  const html = await page.content();
  const seen = await responses();
  expect(seen.some((response) => response.url.includes("/api/media/"))).toBe(true);
  for (const text of [html, ...seen.map((response) => `${response.url}\n${response.body}`)]) {
    expect(text).not.toContain(`${sandbox.url}/files`);
    expect(text).not.toContain("/files/");
    expect(text).not.toContain("signature=");
  }
});

test("an image token is refused once older than its time to live, and for another user", async ({ analystPage: page, adminPage }) => {
  const answer = (await (await page.request.get("/api/verifications?status=approved&per_page=1")).json()) as ListAnswer;
  const publicId = answer.items[0]!.publicId;
  const media = (await (await page.request.get(`/api/verifications/${publicId}/media`)).json()) as {
    items: Array<{ key: string; src?: string }>;
  };
  const src = media.items.find((item) => item.key === "selfie")!.src!;
  expect((await page.request.get(src, { headers: SAME_ORIGIN })).status()).toBe(200);
  expect((await adminPage.request.get(src, { headers: SAME_ORIGIN })).status()).toBe(403);

  // Age the token: the same claim, its expiry moved into the past, sealed with the server's secret.
  const secrets = JSON.parse(fs.readFileSync(path.resolve(process.env.E2E_DATA_DIR ?? ".test-data/e2e", "secrets.json"), "utf8")) as {
    mediaSeal: string;
  };
  const claim = await unsealData<Record<string, unknown>>(decodeURIComponent(src.slice("/api/media/".length)), {
    password: secrets.mediaSeal,
  });
  expect(claim.fileKey).toBe("selfie");
  const aged = await sealData({ ...claim, expiresAt: Date.now() - 1_000 }, { password: secrets.mediaSeal, ttl: 300 });
  const refused = await page.request.get(`/api/media/${encodeURIComponent(aged)}`, { headers: SAME_ORIGIN });
  expect(refused.status()).toBe(410);
  expect(refused.headers()["cache-control"]).toBe("no-store");
});

test("a missing or malformed id shows a plain not found", async ({ analystPage: page, sandboxLog }) => {
  await page.goto("/verifications/00000000-0000-4000-8000-000000000000");
  await expect(page.getByRole("heading", { name: "Verification not found" })).toBeVisible();
  await expect(page.getByText("There is no verification with this id.")).toBeVisible();
  await sandboxLog.mark();
  await page.goto("/verifications/..%2F..%2Ffiles");
  await expect(page.getByRole("heading", { name: /not found/i })).toBeVisible();
  // Whatever else runs meanwhile, no call ever left with a path built from that id.
  expect((await sandboxLog.requests()).filter((request) => /\.\.|%2F|validations-persons\/files/i.test(request.path))).toEqual([]);
});

test("creating a verification shows its public id, linked", async ({ analystPage: page }) => {
  await page.goto("/verifications");
  await page.getByRole("button", { name: "New verification" }).click();
  const dialog = page.getByRole("dialog", { name: "Create a verification" });
  await dialog.getByLabel("Your reference id").fill("e2e-case-1");
  await dialog.getByLabel("Document number").fill("529.982.247-24");
  await dialog.getByRole("button", { name: "Create verification" }).click();
  await expect(dialog.getByText("This is not a valid CPF (check the digits).")).toBeVisible();

  await dialog.getByLabel("Document number").fill("529.982.247-25");
  const posted = page.waitForRequest((request) => request.method() === "POST" && request.url().endsWith("/api/verifications"));
  await dialog.getByRole("button", { name: "Create verification" }).click();
  const body = (await posted).postDataJSON() as Record<string, unknown>;
  expect(Object.keys(body).sort()).toEqual(["document", "refId", "schemaVersion"]);
  await expect(dialog.getByText("Verification created")).toBeVisible();
  const link = dialog.getByRole("link", { name: "Open the verification" });
  await link.click();
  await expect(page).toHaveURL(/\/verifications\/[0-9a-f-]{36}$/);
  await expect(page.getByRole("heading", { level: 1 })).toBeVisible();
});

test("a list of 100 rows renders without layout shift and is usable with the keyboard alone", async ({ analystPage: page }) => {
  await page.addInitScript(() => {
    const state = window as unknown as { __cls: number; __shifts: number };
    state.__cls = 0;
    state.__shifts = 0;
    new PerformanceObserver((list) => {
      for (const entry of list.getEntries() as Array<PerformanceEntry & { value: number; hadRecentInput: boolean }>) {
        if (entry.hadRecentInput) continue;
        state.__cls += entry.value;
        state.__shifts += 1;
      }
    }).observe({ type: "layout-shift", buffered: true });
  });

  await page.goto("/verifications?per_page=100");
  await expect(rows(page)).toHaveCount(100);
  // Let hydration, fonts and any late work settle before reading the shift score.
  await page.waitForTimeout(1500);
  const metrics = await page.evaluate(() => {
    const navigation = performance.getEntriesByType("navigation")[0] as PerformanceNavigationTiming;
    const state = window as unknown as { __cls: number; __shifts: number };
    return {
      cls: state.__cls,
      shifts: state.__shifts,
      responseEnd: navigation.responseEnd,
      domContentLoaded: navigation.domContentLoadedEventEnd,
      load: navigation.loadEventEnd,
    };
  });
  console.log(
    `100 rows (server-rendered): responseEnd ${metrics.responseEnd.toFixed(0)} ms, DOMContentLoaded ${metrics.domContentLoaded.toFixed(0)} ms, load ${metrics.load.toFixed(0)} ms, CLS ${metrics.cls.toFixed(4)} (${metrics.shifts} shifts)`,
  );
  expect(metrics.cls).toBeLessThan(0.01);

  // Client side: 20 rows → 100 rows through the route handler, timed in the page from the click to the
  // 100th row in the DOM (network, JSON and React's render together).
  await page.goto("/verifications");
  await expect(rows(page)).toHaveCount(20);
  await openFilters(page);
  await page.getByLabel("Rows per page").selectOption("100");
  const clientMs = await page.evaluate(
    () =>
      new Promise<number>((resolve) => {
        const body = document.querySelector("table tbody")!;
        const start = performance.now();
        const observer = new MutationObserver(() => {
          if (body.querySelectorAll("tr").length === 100) {
            observer.disconnect();
            requestAnimationFrame(() => resolve(performance.now() - start));
          }
        });
        observer.observe(body, { childList: true });
        // The filters form in the page, not the top bar's search form.
        document.querySelector<HTMLButtonElement>("main form button[type=submit]")!.click();
      }),
  );
  console.log(`100 rows (client refetch from 20): ${clientMs.toFixed(0)} ms from click to painted rows`);
  await page.goto("/verifications?per_page=100");
  await expect(rows(page)).toHaveCount(100);

  // Keyboard only: tick "In review", apply, then open the first row.
  const focusOn = async (matches: () => Promise<boolean>, limit = 80) => {
    for (let presses = 0; presses < limit; presses += 1) {
      await page.keyboard.press("Tab");
      if (await matches()) return;
    }
    throw new Error("focus never reached the target");
  };
  const focused = () =>
    page.evaluate(() => ({
      tag: document.activeElement?.tagName,
      label: document.activeElement?.getAttribute("aria-label") ?? document.activeElement?.textContent ?? "",
      value: (document.activeElement as HTMLInputElement | null)?.value,
    }));
  // The folded filters open from the keyboard too.
  await focusOn(async () => (await focused()).tag === "SUMMARY");
  await page.keyboard.press("Enter");
  await focusOn(async () => (await focused()).value === "review");
  await page.keyboard.press("Space");
  await focusOn(async () => (await focused()).label === "Apply filters");
  const started = Date.now();
  const refetched = page.waitForResponse(
    (response) => response.url().includes("/api/verifications?") && response.url().includes("status=review"),
  );
  await page.keyboard.press("Enter");
  await expect(page).toHaveURL(/status=review/);
  const answer = (await (await refetched).json()) as ListAnswer;
  await expect(rows(page)).toHaveCount(answer.items.length);
  await expect(rows(page).first().locator("td").nth(1)).toHaveText(/In review/);
  await expect(page.locator("table[aria-busy]")).toHaveCount(0);
  console.log(`filter applied by keyboard → ${answer.items.length} rows on screen through the route handler: ${Date.now() - started} ms`);
  for (const row of (await rows(page).all()).slice(0, 10)) await expect(row.locator("td").nth(1)).toHaveText(/In review/);

  // Applying keeps the focus where it was, and the rows are a couple of Tab presses away.
  expect((await focused()).label).toBe("Apply filters");
  await focusOn(async () => ((await focused()).label ?? "").startsWith("Open verification"), 12);
  await page.keyboard.press("Enter");
  await expect(page).toHaveURL(/\/verifications\/[0-9a-f-]{36}\?list=/);
  await expect(page.locator("article[data-step]")).toHaveCount(3);
});

test("image tokens are fetched again before they expire while the page stays open", async ({ analystPage: page }) => {
  const answer = (await (await page.request.get("/api/verifications?status=approved&per_page=1")).json()) as ListAnswer;
  const publicId = answer.items[0]!.publicId;
  await page.clock.install();
  const mediaAnswers: Array<{ items: Array<{ key: string; src?: string }> }> = [];
  page.on("response", (response) => {
    if (response.url().endsWith(`/api/verifications/${publicId}/media`)) void response.json().then((body) => mediaAnswers.push(body));
  });
  await page.goto(`/verifications/${publicId}`);
  const selfie = page.getByRole("img", { name: /^Selfie of verification/ });
  await expect.poll(() => selfie.evaluate((element: HTMLImageElement) => element.complete && element.naturalWidth > 0)).toBe(true);
  await expect.poll(() => mediaAnswers.length).toBe(1);

  // Four and a half minutes later (tokens live under five), fresh tokens have arrived by themselves.
  await page.clock.fastForward("04:30");
  await expect.poll(() => mediaAnswers.length).toBe(2);
  const [first, second] = mediaAnswers;
  expect(second!.items.find((item) => item.key === "selfie")!.src).not.toBe(first!.items.find((item) => item.key === "selfie")!.src);
  // The picture on screen stays as it is (a new token would only download it again).
  await expect.poll(() => selfie.evaluate((element: HTMLImageElement) => element.complete && element.naturalWidth > 0)).toBe(true);
  // A freshly issued token opens.
  expect((await page.request.get(second!.items.find((item) => item.key === "selfie")!.src!, { headers: SAME_ORIGIN })).status()).toBe(200);
});

test("a URL with refused filters names each one, calls nothing upstream, and links back to the full list", async ({
  analystPage: page,
  sandboxLog,
}) => {
  await page.goto("/verifications?per_page=abc&sort=desc");
  const alert = page.getByRole("alert").filter({ hasText: "per_page" });
  await expect(alert).toBeVisible();
  await expect(alert).toContainText("sort");
  // Other specs and the dashboard's own background work (case sync, webhook processing) call the sandbox in
  // parallel, so look for this page's call: the refused `sort` never reaches the service.
  const leaked = (await sandboxLog.requests()).filter(
    (request) => request.path.includes("validations-persons") && request.query.includes("sort"),
  );
  expect(leaked).toEqual([]);
  await alert.getByRole("link").click();
  await expect(page).toHaveURL(/\/verifications$/);
  await expect(page.locator("table tbody tr").first()).toBeVisible();
});

test("the document's portrait crop is drawn once, shown face beside face, kept for the next reviewer, and set aside on demand", async ({
  analystPage: page,
  adminPage,
}) => {
  const answer = (await (await page.request.get("/api/verifications?status=review&per_page=50")).json()) as {
    items: Array<{ publicId: string; steps: Array<{ name: string; state: string }> }>;
  };
  // One no other test crops: the last review with a selfie.
  const target = answer.items.filter((item) => item.steps.some((step) => step.name === "liveness" && step.state === "approved")).at(-1)!;
  await page.goto(`/verifications/${encodeURIComponent(target.publicId)}`);
  const faces = page.getByRole("region", { name: "Face comparison" });
  const documentImage = faces.getByRole("img", { name: /^Document \(front\) of verification/ });
  await expect.poll(() => documentImage.evaluate((element: HTMLImageElement) => element.complete && element.naturalWidth > 0)).toBe(true);
  const cropLayer = faces.locator("[data-face-frame=document_front] [data-crop-scale]");
  await expect(cropLayer).toHaveCount(0);

  // Drawn with the pointer over the document's frame, then nudged with the keyboard.
  await faces.getByRole("button", { name: "Crop to the portrait" }).click();
  const frame = faces.locator("[data-face-frame=document_front] [data-face-viewport]");
  const box = (await frame.boundingBox())!;
  await page.mouse.move(box.x + box.width * 0.1, box.y + box.height * 0.35);
  await page.mouse.down();
  await page.mouse.move(box.x + box.width * 0.4, box.y + box.height * 0.65, { steps: 5 });
  await page.mouse.up();
  const cropBox = faces.getByRole("group", { name: "Portrait crop on the document" });
  const drawn = await cropBox.getAttribute("data-crop-box");
  await cropBox.focus();
  await page.keyboard.press("ArrowRight");
  await expect(cropBox).not.toHaveAttribute("data-crop-box", drawn!);
  await faces.getByRole("button", { name: "Save crop" }).click();
  await expect(faces.getByText("Crop saved.")).toBeVisible();

  // Shown filling the frame (scaled up), under the shared zoom; another reviewer sees the same crop.
  await expect(cropLayer).toHaveAttribute("data-crop-scale", /^(?!1\.00)\d+\.\d\d$/);
  await expect(faces.getByText("Document (portrait crop)")).toBeVisible();
  await adminPage.goto(`/verifications/${encodeURIComponent(target.publicId)}`);
  await expect(adminPage.locator("[data-face-frame=document_front] [data-crop-scale]")).toHaveCount(1);

  // Set aside without clearing, then cleared for everyone.
  await faces.getByRole("button", { name: "Show the whole document" }).click();
  await expect(cropLayer).toHaveCount(0);
  await faces.getByRole("button", { name: "Show the portrait" }).click();
  await expect(cropLayer).toHaveCount(1);
  await faces.getByRole("button", { name: "Clear crop" }).click();
  await expect(cropLayer).toHaveCount(0);
  await adminPage.reload();
  await expect(adminPage.getByRole("button", { name: "Crop to the portrait" })).toBeVisible();
});

test("a change arriving while the list is open is offered over the page, without moving the rows under the reader", async ({
  analystPage: page,
}) => {
  await page.setViewportSize({ width: 1440, height: 900 });
  // The page hears of changes once its live stream is open and its change feed has its starting point (a change
  // before both is not offered: docs/architecture.md, "Live updates").
  const streamOpen = page.waitForResponse((response) => response.url().includes("/api/events/stream"));
  const feedRead = page.waitForResponse((response) => new URL(response.url()).pathname === "/api/verification-events");
  await page.goto("/verifications?per_page=100");
  await expect(rows(page)).toHaveCount(100);
  await Promise.all([streamOpen, feedRead]);
  const firstRow = rows(page).first();
  const before = await firstRow.boundingBox();
  // A verification created meanwhile (the service's webhook reaches the dashboard, which tells the open page).
  await createVerification(page.request, "e2e-live-notice");
  const notice = page.getByRole("status").filter({ hasText: /created or changed since this list was loaded/ });
  await expect(notice).toBeVisible({ timeout: 20_000 });
  expect(await firstRow.boundingBox()).toEqual(before);
  // It floats within the screen and is reached by the keyboard like anything else.
  const show = notice.getByRole("button", { name: "Show changes" });
  const box = (await show.boundingBox())!;
  expect(box.y + box.height).toBeLessThanOrEqual(900);
  await show.focus();
  await page.keyboard.press("Enter");
  await expect(notice).toBeHidden();
});
