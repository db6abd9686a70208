import type { BrowserContext, Page } from "@playwright/test";

import { baseURL } from "@/playwright.config";

import { DEMO, expect, signInContext, test, withStepUp, type Account } from "./fixtures";

/*
 * Staff sign-in through the real page against the production build: reaching the verifications page,
 * the "not allowed" answer to an analyst on an admin page, a wrong password that does not say whether
 * the email exists, the lockout after repeated failures, and a copied session cookie that stops
 * working after sign-out.
 *
 * Throttling counts failures per account and per address (each worker's own address, e2e/fixtures.ts): the
 * failures below use throwaway accounts, never the demo ones or the worker's, and stay few.
 */

async function inEnglish(context: BrowserContext): Promise<void> {
  await context.addCookies([{ name: "NEXT_LOCALE", value: "en", url: baseURL }]);
}

async function signInThroughPage(page: Page, email: string, password: string): Promise<void> {
  await page.getByLabel("Email").fill(email);
  await page.getByLabel("Password").fill(password);
  await page.getByRole("button", { name: "Sign in", exact: true }).click();
}

/** A staff account made through the admin API, so lockouts never touch the demo accounts. */
async function throwawayAccount(adminPage: Page, admin: Account, label: string): Promise<{ email: string; password: string }> {
  const email = `e2e-${label}-${Date.now()}-${Math.floor(Math.random() * 1e6)}@example.com`;
  // Playwright's request context sends no Origin; the route kit refuses a write without one. An invite needs a
  // step-up: the admin's password (they have no factor).
  const response = await withStepUp(adminPage.request, admin.password, () =>
    adminPage.request.post("/api/staff", {
      data: { email, name: `E2E ${label}`, role: "analyst" },
      headers: { origin: baseURL },
    }),
  );
  expect(response.status()).toBe(201);
  const { oneTimePassword } = (await response.json()) as { oneTimePassword: string };
  return { email, password: oneTimePassword };
}

// The form's error message (inside <main>: Next's route announcer, outside it, also has role="alert").
const formAlert = (page: Page) => page.getByRole("main").getByRole("alert");

// The demo analyst, as README promises it: seeded in the embedded default, signing in with its documented password.
test("the analyst signs in through the page and reaches the verifications page", async ({ browser }) => {
  const context = await browser.newContext();
  await inEnglish(context);
  const page = await context.newPage();
  await page.goto("/verifications");
  // Signed out: sent to the sign-in page, which will bring us back.
  await expect(page).toHaveURL(/\/sign-in\?callbackUrl=%2Fverifications$/);
  await expect(page.getByRole("heading", { level: 1, name: "Sign in" })).toBeVisible();
  await signInThroughPage(page, DEMO.analyst.email, DEMO.analyst.password);
  await expect(page).toHaveURL(/\/verifications$/);
  await expect(page.getByRole("navigation", { name: "Main navigation" }).getByRole("link", { name: "Verifications" })).toHaveAttribute(
    "aria-current",
    "page",
  );
  await expect(page.getByRole("button", { name: "Sign out" })).toBeVisible();
  await context.close();
});

test("an admin page answers the analyst with “not allowed”, the staff API with 403", async ({ analystPage: page }) => {
  await inEnglish(page.context());
  await page.goto("/admin/staff");
  await expect(page.getByRole("heading", { level: 1, name: "Not allowed" })).toBeVisible();
  await expect(page.getByText("Staff accounts")).toHaveCount(0);
  expect((await page.request.get("/api/staff")).status()).toBe(403);
});

test("a wrong password shows an error that does not say whether the email exists", async ({ browser, adminPage, staff }) => {
  const account = await throwawayAccount(adminPage, staff.admin, "wrong");
  const context = await browser.newContext();
  await inEnglish(context);
  const page = await context.newPage();
  await page.goto("/sign-in");

  await signInThroughPage(page, account.email, "not-the-password");
  await expect(formAlert(page)).toHaveText("The email or password is not correct.");
  const known = await formAlert(page).textContent();

  await signInThroughPage(page, `nobody-${Date.now()}@example.com`, "not-the-password");
  await expect(formAlert(page)).toHaveText("The email or password is not correct.");
  expect(await formAlert(page).textContent()).toBe(known);
  await expect(page).toHaveURL(/\/sign-in/);
  await context.close();
});

test("after the limit, sign-in is refused even with the right password", async ({ browser, adminPage, staff }) => {
  test.setTimeout(90_000);
  const account = await throwawayAccount(adminPage, staff.admin, "lockout");
  const context = await browser.newContext();
  await inEnglish(context);
  const page = await context.newPage();
  await page.goto("/sign-in");

  // Five passwords checked from one address (PAIR_FAILURE_LIMIT), each refused as wrong; then this address is
  // refused the account for the rest of the 15-minute window, even with the right password, unchecked.
  for (let attempt = 1; attempt <= 5; attempt += 1) {
    await signInThroughPage(page, account.email, `wrong guess ${attempt}`);
    await expect(page.getByRole("button", { name: "Sign in", exact: true })).toBeEnabled({ timeout: 15_000 });
    await expect(formAlert(page)).toHaveText(/The email or password is not correct\./);
  }
  await signInThroughPage(page, account.email, `wrong guess 6`);
  await expect(formAlert(page)).toHaveText(/Too many attempts\. Try again in \d+ minutes?\./);

  await signInThroughPage(page, account.email, account.password);
  await expect(formAlert(page)).toHaveText(/Too many attempts\. Try again in \d+ minutes?\./);
  await expect(page).toHaveURL(/\/sign-in/);
  expect((await context.cookies()).some((cookie) => cookie.name.includes("session-token"))).toBe(false);
  await context.close();
});

test("after sign-out, the old session cookie gets 401 from the API and the sign-in page for a page", async ({ browser, staff }) => {
  const context = await browser.newContext();
  await inEnglish(context);
  await signInContext(context, staff.analyst);
  const page = await context.newPage();
  await page.goto("/verifications");
  await expect(page.getByRole("button", { name: "Sign out" })).toBeVisible();
  expect((await page.request.get("/api/verifications")).status()).toBe(200);
  // Keep a copy of the session cookie, as someone who stole it would.
  const stolen = (await context.cookies()).filter((cookie) => cookie.name.includes("session-token"));
  expect(stolen).toHaveLength(1);

  await page.getByRole("button", { name: "Sign out" }).click();
  await expect(page).toHaveURL(/\/sign-in/);
  await context.close();

  const replay = await browser.newContext();
  await inEnglish(replay);
  await replay.addCookies(stolen);
  expect((await replay.request.get("/api/verifications")).status()).toBe(401);
  const again = await replay.newPage();
  await again.goto("/verifications");
  await expect(again).toHaveURL(/\/sign-in/);
  await expect(again.getByRole("heading", { level: 1, name: "Sign in" })).toBeVisible();
  await replay.close();
});
