import type { Page, Route } from "@playwright/test";

import { caseOf, reviewCase, WRITE } from "./case-support";
import { expect, test } from "./fixtures";

/*
 * The analyst's loop without a wasted key and without a lost one (issue 32): a decision key takes an unassigned
 * case and opens the form; after Ctrl+Enter the focus leaves the comment, so the next `j` opens the next case and
 * the comment recorded is exactly what was typed; the team's take mode ("never", "on open") as the page reads it;
 * a key pressed before the case has arrived is applied when it does; a lazily loaded dialog opens on the first
 * press even when its code is slow to come.
 *
 * The take mode is one setting for the whole team (GET, PUT /api/cases/settings): the tests here read the case
 * with the mode they exercise written into the answer, rather than change it under the other worker's tests.
 */

const MINE = "queue=mine&sort=age";
const caseUrl = (publicId: string, context = MINE) => `/verifications/${publicId}?cases=${encodeURIComponent(context)}`;
const isCaseRead = (publicId: string) => (url: URL) => url.pathname === `/api/cases/${publicId}`;

/** The case page's reads of this case answer `takeMode` as given (the rest as the server answers). */
async function withTakeMode(page: Page, publicId: string, takeMode: string) {
  await page.route(isCaseRead(publicId), async (route: Route) => {
    const response = await route.fetch();
    route.fulfill({ response, json: { ...(await response.json()), takeMode } });
  });
}

async function claim(page: Page, publicId: string) {
  const answer = await page.request.post(`/api/cases/${encodeURIComponent(publicId)}/assignment`, {
    headers: WRITE,
    data: { assignee: "me" },
  });
  expect(answer.status()).toBe(200);
}

test.describe("at 1440×900", () => {
  test.use({ viewport: { width: 1440, height: 900 } });

  test("x takes an unassigned case and opens the form; after Ctrl+Enter, j opens the next case and the comment is exactly what was typed", async ({
    analystPage: page,
    staff,
  }) => {
    const { publicId } = await reviewCase(page.request);
    const { publicId: later } = await reviewCase(page.request);
    await claim(page, later); // so "my cases" has one after this one
    await page.goto(caseUrl(publicId));
    await expect(page.getByRole("button", { name: "Assign to me" })).toBeVisible();
    await page.waitForLoadState("networkidle");

    await page.keyboard.press("x");
    const form = page.getByRole("form", { name: "Recommendation", exact: true });
    await expect(form.getByRole("radio", { name: "Reprove" })).toBeChecked();
    const reason = form.getByRole("checkbox", { name: "Document data does not match" });
    await expect(reason).toBeFocused();
    await expect(page.getByTestId("case-assignee")).toContainText(staff.analyst.email);
    await page.keyboard.press("1");
    await page.keyboard.press("c");
    await page.keyboard.type("Blurry document photo.");
    await page.keyboard.press("Control+Enter");
    await expect(page.locator("#case-panel-title")).toBeFocused();
    await page.keyboard.press("j");
    await expect(page).not.toHaveURL(new RegExp(`/verifications/${publicId}\\?`));
    await expect(page).toHaveURL(/\/verifications\/[^/?]+\?cases=/);

    const recorded = (await (await page.request.get(`/api/cases/${encodeURIComponent(publicId)}`)).json()) as {
      case: { outcomeComment: string; recommendation: string; assignee: { email: string } };
    };
    expect(recorded.case).toMatchObject({ outcomeComment: "Blurry document photo.", recommendation: "reprove" });
    expect(recorded.case.assignee.email).toBe(staff.analyst.email);
  });

  test('"never": x on an unassigned case says it must be taken first, and a takes it', async ({ analystPage: page }) => {
    const { publicId } = await reviewCase(page.request);
    await withTakeMode(page, publicId, "never");
    await page.goto(caseUrl(publicId));
    const claimButton = page.getByRole("button", { name: "Assign to me" });
    await expect(claimButton).toBeVisible();
    await page.waitForLoadState("networkidle");
    await page.keyboard.press("x");
    await expect(page.getByTestId("case-must-take")).toHaveText(/Take this case first \(a, "Assign to me"\)/);
    await expect(page.getByRole("form", { name: "Recommendation", exact: true })).toHaveCount(0);
    expect((await caseOf(page.request, publicId)).outcomeState).toBeNull();
    await page.keyboard.press("a");
    await expect(page.getByRole("form", { name: "Recommendation", exact: true })).toBeVisible();
    await expect(page.getByTestId("case-must-take")).toHaveCount(0);
  });

  test('"on open": opening an unassigned case takes it, with no key', async ({ analystPage: page, staff }) => {
    const { publicId } = await reviewCase(page.request);
    await withTakeMode(page, publicId, "on_open");
    await page.goto(caseUrl(publicId));
    await expect(page.getByRole("form", { name: "Recommendation", exact: true })).toBeVisible();
    await expect(page.getByTestId("case-assignee")).toContainText(staff.analyst.email);
  });
});

test("j pressed before the case has arrived opens the next case once it does", async ({ analystPage: page }) => {
  const { publicId } = await reviewCase(page.request);
  const { publicId: later } = await reviewCase(page.request);
  await claim(page, publicId);
  await claim(page, later);
  let release = () => undefined as void;
  const arrived = new Promise<void>((resolve) => (release = resolve));
  await page.route(isCaseRead(publicId), async (route) => {
    await arrived;
    await route.continue();
  });
  await page.goto(caseUrl(publicId));
  // The page's code runs and listens; the case is still on its way.
  await expect(page.getByTestId("case-panel-loading")).toHaveAttribute("data-keys", "kept");
  await page.keyboard.press("j");
  await expect(page.getByText("Loading the case: keys pressed now apply when it is ready.")).toBeVisible();
  await expect(page).toHaveURL(new RegExp(`/verifications/${publicId}\\?`));
  release();
  await expect(page).not.toHaveURL(new RegExp(`/verifications/${publicId}\\?`));
  await expect(page).toHaveURL(/\/verifications\/[^/?]+\?cases=/);
});

test("the re-verification dialog opens on the first press while its code is still on its way", async ({ analystPage: page }) => {
  const { publicId } = await reviewCase(page.request);
  await claim(page, publicId);
  // Every script chunk comes 3 s late, as on a slow machine's first run.
  await page.route("**/_next/static/chunks/**", async (route) => {
    await new Promise((resolve) => setTimeout(resolve, 3_000));
    await route.continue();
  });
  await page.goto(`/verifications/${publicId}`, { waitUntil: "commit" });
  const trigger = page.getByTestId("case-reverify");
  await trigger.click();
  await expect(page.getByRole("dialog", { name: "Ask the person to verify again" })).toBeVisible({ timeout: 30_000 });
  await expect(trigger).not.toHaveAttribute("aria-busy", "true");
});
