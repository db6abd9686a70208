import { expect, test } from "./fixtures";

/*
 * First paint (docs/benchmarks.md "First paint"): a page's first document holds its content, not a loading outline
 * that React would reveal 300 ms or more after the first paint, and no web font is fetched before it.
 * While a navigation waits for the server, the link that started it shows its pending bar.
 */

test("each signed-in page's first document holds its content, with no streamed outline", async ({ adminPage }) => {
  const list = await adminPage.request.get("/verifications?per_page=5");
  const listHtml = await list.text();
  const publicId = /<tr[^>]*><th[^>]*><a[^>]*href="\/verifications\/([0-9a-f-]{36})[?"]/.exec(listHtml)?.[1];
  expect(publicId, "the list's rows are in its first document").toBeTruthy();
  const detailPath = `/verifications/${publicId}`;
  for (const path of ["/", "/verifications?per_page=5", detailPath, "/cases", "/admin/audit", "/admin/integrations"]) {
    const response = await adminPage.request.get(path);
    expect(response.status(), path).toBe(200);
    const html = await response.text();
    // `$RC(` is React's call that swaps a streamed boundary's content in for its fallback.
    expect(html.includes("$RC("), `${path} streams a boundary after its first paint`).toBe(false);
    expect(html, `${path} has its heading`).toMatch(/<h1[\s>]/);
    // The detail's content, not an outline: its summary section names the verification's status.
    if (path === detailPath) expect(html).toContain('aria-labelledby="summary-heading"');
  }
});

test("no font is fetched: the pages use the system's faces", async ({ analystPage: page }) => {
  const fonts: string[] = [];
  page.on("request", (request) => {
    if (request.resourceType() === "font" || /\.(woff2?|ttf|otf)(\?|$)/.test(request.url())) fonts.push(request.url());
  });
  await page.goto("/verifications");
  await expect(page.getByRole("heading", { level: 1 })).toBeVisible();
  await page.goto("/sign-in");
  await expect(page.getByRole("heading", { level: 1 })).toBeVisible();
  expect(fonts).toEqual([]);
});

test("a navigation that waits for the server shows the pending bar on its link and says so to screen readers", async ({
  analystPage: page,
}) => {
  await page.goto("/");
  const nav = page.locator('nav a[href="/verifications"]');
  await expect(nav).toBeVisible();
  // Hold the navigation's RSC request (and any prefetch of it) until the test lets it through.
  let release!: () => void;
  const held = new Promise<void>((resolve) => (release = resolve));
  await page.route(
    (url) => url.pathname === "/verifications" && url.searchParams.has("_rsc"),
    async (route) => {
      await held;
      await route.continue();
    },
  );
  const status = page.locator("[data-navigation-status]");
  await expect(status).toHaveAttribute("role", "status");
  await expect(status).toHaveText("");
  await nav.click();
  await expect(nav.locator("[data-link-pending]")).toHaveCount(1);
  // Screen readers hear it from the shell's status region, present since the first paint.
  await expect(status).toHaveText(/^(Loading…|Carregando…)$/);
  await expect(page).not.toHaveURL(/\/verifications/);
  release();
  await expect(page).toHaveURL(/\/verifications$/);
  await expect(page.locator("table tbody tr th[role=rowheader] a").first()).toBeVisible();
  await expect(nav.locator("[data-link-pending]")).toHaveCount(0);
  await expect(status).toHaveText("");
});
