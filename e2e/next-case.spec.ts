import type { APIRequestContext, Request } from "@playwright/test";

import { sandboxURL } from "@/playwright.config";

import { caseOf, reviewCase, WRITE } from "./case-support";
import { expect, SAME_ORIGIN, test } from "./fixtures";

/*
 * The queue's next case read ahead (issue 25): while the analyst works a case, the next one's case, image tokens
 * and pictures are read into the tab's memory, within the media rules: only the dashboard's sealed `/api/media/`
 * tokens reach the browser (never the service's signed URL), nothing is stored (no Cache Storage, IndexedDB,
 * localStorage or sessionStorage), and "next" shows the pictures without fetching them again. The audit trail
 * says what happened when: read ahead, then seen when shown.
 */

const FACES = ["selfie", "document_front"] as const;

/** A case of this analyst's own queue whose images include both faces (the sandbox may fail a liveness: no selfie). */
async function caseWithFaces(request: APIRequestContext): Promise<string> {
  for (let tries = 0; tries < 6; tries += 1) {
    const { publicId } = await reviewCase(request);
    // Asked of the sandbox itself, so the dashboard's trail of this case starts with the test.
    const files = await fetch(`${sandboxURL}/core/public/validations-persons/${encodeURIComponent(publicId)}/files`, {
      headers: { "x-api-key": "sbx_core_view_media" },
    });
    expect(files.status).toBe(200);
    const entries = (await files.json()) as Record<string, unknown>;
    if (!FACES.every((key) => entries[key])) continue;
    // Claimed only once it has both faces: a case claimed and passed over would sit between the two in the queue.
    const claimed = await request.post(`/api/cases/${encodeURIComponent(publicId)}/assignment`, {
      headers: WRITE,
      data: { assignee: "me" },
    });
    expect(claimed.status()).toBe(200);
    return publicId;
  }
  throw new Error("the sandbox gave no review case with both faces in six tries");
}

interface AuditRow {
  action: string;
  details: { file?: string; ahead?: string };
}

test("the next case is read ahead into memory only, through sealed tokens, and shown without fetching its images again", async ({
  analystPage: page,
  adminPage: admin,
}) => {
  test.setTimeout(120_000);
  await page.setViewportSize({ width: 1440, height: 900 });
  // Two cases of this analyst's own queue, one after the other in it: the first's "next" is the second.
  const older = await caseWithFaces(page.request);
  const newer = await caseWithFaces(page.request);
  const context = "queue=mine&sort=age";
  const nextOf = async (id: string) =>
    ((await (await page.request.get(`/api/cases/${encodeURIComponent(id)}?${context}`)).json()) as { case: { next: string | null } }).case
      .next;
  const [first, second] = (await nextOf(older)) === newer ? [older, newer] : [newer, older];
  expect(await nextOf(first)).toBe(second);
  expect((await caseOf(page.request, second)).status).toBe("open");

  // Everything the browser asks for and receives, to search for signed URLs and to count what "next" fetches.
  const requests: Request[] = [];
  const bodies: string[] = [];
  page.on("request", (request) => requests.push(request));
  page.on("response", async (response) => {
    const type = response.headers()["content-type"] ?? "";
    const text = /json|javascript|x-component|text\/html/.test(type) ? await response.text().catch(() => "") : "";
    bodies.push(`${response.url()}\n${JSON.stringify(response.headers())}\n${text}`);
  });
  const aheadImages = () => requests.filter((request) => request.url().includes("/api/media/") && request.headers()["x-kyc-ahead"] === "1");

  await page.goto(`/verifications/${encodeURIComponent(first)}?${new URLSearchParams({ cases: context }).toString()}`);
  const main = page.locator("main");
  const panel = main.getByTestId("decision-panel");
  await expect(panel.locator("a[rel=next]")).toHaveAttribute("href", new RegExp(`/verifications/${second}\\?`));
  // While the analyst reads the first case, the second's pictures arrive (read ahead, as background requests).
  await expect
    .poll(async () => (await Promise.all(aheadImages().map((request) => request.response()))).filter(Boolean).length, {
      timeout: 20_000,
    })
    .toBeGreaterThanOrEqual(FACES.length);
  for (const request of aheadImages()) {
    expect(request.headers()["x-kyc-background"]).toBe("1");
    expect((await request.response())?.headers()["cache-control"]).toBe("no-store");
  }
  await page.waitForLoadState("networkidle");

  const since = requests.length;
  await panel.locator("a[rel=next]").click();
  await expect(page).toHaveURL(new RegExp(`/verifications/${second}\\?cases=`));
  const faces = main.locator("section[aria-labelledby=faces-heading]");
  for (const key of FACES) {
    const image = faces.locator(`[data-face-frame="${key}"] img`);
    await expect(image).toHaveAttribute("alt", new RegExp(second));
    await expect(image).toHaveAttribute("src", /^blob:/);
    await expect.poll(() => image.evaluate((element: HTMLImageElement) => element.complete && element.naturalWidth > 0)).toBe(true);
  }
  await page.waitForLoadState("networkidle");
  const after = requests.slice(since).map((request) => new URL(request.url()).pathname);
  // The pictures came from memory, and neither the case nor its image tokens were asked for again.
  expect(after.filter((path) => path.startsWith("/api/media/"))).toEqual([]);
  expect(after).not.toContain(`/api/cases/${second}`);
  expect(after).not.toContain(`/api/verifications/${second}/media`);

  // Only sealed tokens and in-memory addresses in the page; never the service's signed file URL anywhere.
  for (const src of await main.locator("img").evaluateAll((images) => images.map((image) => (image as HTMLImageElement).src))) {
    expect(src).toMatch(/^(blob:|https?:\/\/[^/]+\/api\/media\/)/);
  }
  const received = bodies.join("\n");
  expect(received).not.toContain(sandboxURL);
  expect(received).not.toMatch(/\/files\/[0-9a-f-]{36}\?expires=/);
  expect(received).not.toContain("signature=");

  // Nothing persisted in the browser.
  const stored = await page.evaluate(async () => ({
    caches: (await caches.keys()).length,
    databases: (await indexedDB.databases()).length,
    local: localStorage.length,
    session: sessionStorage.length,
  }));
  expect(stored).toEqual({ caches: 0, databases: 0, local: 0, session: 0 });

  // The trail: the second case's pictures were read ahead (not seen), then seen when "next" showed them.
  let rows: AuditRow[] = [];
  await expect
    .poll(
      async () => {
        const trail = await admin.request.get(`/api/audit?action=verification.image&target=${encodeURIComponent(second)}&limit=50`, {
          headers: SAME_ORIGIN,
        });
        // An answer without events (a refusal) names itself in the poll's failure rather than ending it.
        if (!trail.ok()) return `GET /api/audit: ${trail.status()} ${await trail.text()}`;
        rows = ((await trail.json()) as { events: AuditRow[] }).events.reverse();
        return FACES.every((file) => rows.some((row) => row.details.file === file && row.details.ahead === "shown"));
      },
      { timeout: 10_000 },
    )
    .toBe(true);
  for (const file of FACES) {
    const marks = rows.filter((row) => row.details.file === file).map((row) => row.details.ahead ?? "opened");
    expect(marks).toEqual(["read", "shown"]);
  }

  // Leaving the case lets its pictures go: their in-memory addresses no longer open.
  const selfieSrc = await faces.locator('[data-face-frame="selfie"] img').getAttribute("src");
  await page.keyboard.press("u");
  await expect(page).toHaveURL(/\/cases\?/);
  await expect
    .poll(
      () =>
        page.evaluate(
          (url) =>
            fetch(url!).then(
              () => "open",
              () => "revoked",
            ),
          selfieSrc,
        ),
      { timeout: 10_000 },
    )
    .toBe("revoked");
});
