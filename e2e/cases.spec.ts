import type { Page } from "@playwright/test";

import { settledAxe } from "./axe";
import { caseOf, moveUpstream, reviewCase, WRITE } from "./case-support";
import { expect, signInContext, test, withStepUp } from "./fixtures";

/*
 * Case work in a real browser against the sandbox: each test creates its own verification through the
 * dashboard, moves it with the sandbox's control route (which signs and sends the service's webhooks to the
 * dashboard), and waits for the case that event opens. Writes through Playwright's request context carry
 * the dashboard's own Origin, as the route kit requires of every write.
 */

/** Selects the row of `publicId` with j alone, from the top of the list. */
async function selectByKeyboard(page: Page, publicId: string) {
  const rows = page.getByTestId("case-row");
  await expect(rows.filter({ hasText: publicId.slice(0, 13) })).toHaveCount(1);
  const ids = await rows.getByRole("link").allTextContents();
  const index = ids.findIndex((text) => text.startsWith(publicId.slice(0, 13)));
  expect(index).toBeGreaterThanOrEqual(0);
  await page.locator("body").press("k"); // the first row is selected on arrival; k keeps it there
  for (let step = 0; step < index; step += 1) await page.keyboard.press("j");
  await expect(rows.nth(index)).toHaveAttribute("aria-current", "true");
}

test("the queue keeps the page size its address asks for when it reads again", async ({ analystPage: page }) => {
  // At least three open cases, whatever ran before: a page of two is then a page of the queue, not all of it.
  for (let made = 0; made < 3; made += 1) await reviewCase(page.request);
  await page.goto("/cases?queue=open&per_page=2");
  const rows = page.locator("table tbody tr");
  await expect(rows).toHaveCount(2);
  // A new sort reads the queue through the route handler: still two rows, and the address keeps the size.
  await page.getByRole("combobox", { name: /^(Sort by|Ordenar por)/ }).selectOption("due");
  await expect(page).toHaveURL(/[?&]sort=due(&|$)/);
  await expect(page).toHaveURL(/[?&]per_page=2(&|$)/);
  await expect(rows).toHaveCount(2);
});

test("an analyst works a review case by keyboard, an admin confirms, the timeline shows each step, the upstream closes and reopens it", async ({
  analystPage: page,
  adminPage: admin,
  staff,
}) => {
  const { publicId } = await reviewCase(page.request);

  // Queue → select with j → a (assign to me) → Enter (open). The open queue keeps the row once claimed.
  await page.goto("/cases?queue=open&age=under_1d&per_page=200");
  await selectByKeyboard(page, publicId);
  await page.keyboard.press("a");
  await expect(page.getByRole("status").filter({ hasText: `Case ${publicId} assigned to you.` })).toBeVisible();
  await page.keyboard.press("Enter");
  await expect(page).toHaveURL(new RegExp(`/verifications/${publicId}`));
  await expect(page.getByTestId("case-assignee")).toHaveText(staff.analyst.email);

  // A note, typed and sent from the keyboard.
  await page.getByLabel("Add a note").focus();
  await page.keyboard.type("Selfie and document photo match; address proof pending.");
  await page.keyboard.press("Tab");
  await page.keyboard.press("Enter");
  const timeline = page.getByTestId("case-timeline");
  await expect(timeline.getByText("Selfie and document photo match; address proof pending.")).toBeVisible();

  // A reprove with reasons and a comment: it needs a second person.
  const form = page.getByRole("form", { name: "Recommendation", exact: true });
  await form.getByRole("radio", { name: "Reprove" }).focus();
  await page.keyboard.press("Space");
  await form.getByRole("checkbox", { name: "Document data does not match" }).focus();
  await page.keyboard.press("Space");
  await form.getByRole("textbox", { name: /^Comment/ }).focus();
  await page.keyboard.type("Birth date differs from the registry.");
  await form.getByRole("button", { name: "Record recommendation" }).focus();
  await page.keyboard.press("Enter");
  await expect(page.getByTestId("case-outcome")).toContainText("You recorded this recommendation");
  expect((await caseOf(page.request, publicId)).outcomeState).toBe("pending_confirmation");

  // Four eyes: the admin confirms.
  await admin.goto(`/verifications/${publicId}`);
  await admin.getByRole("button", { name: "Agree", exact: true }).focus();
  await admin.keyboard.press("Enter");
  await expect(admin.getByTestId("case-outcome")).toContainText(`Confirmed by ${staff.admin.email}`);

  await page.reload();
  for (const step of ["Case opened", `Assigned to ${staff.analyst.email}`, "Note", "Recommendation: Reprove", "Confirmed"]) {
    await expect(timeline.getByRole("listitem").filter({ hasText: step }).first()).toBeVisible();
  }

  // The provider approves: the webhook closes the case, which says it disagrees with the confirmed reprove.
  await moveUpstream(publicId, "approved");
  await expect.poll(async () => (await caseOf(page.request, publicId)).status, { timeout: 20_000 }).toBe("closed");
  await page.reload();
  await expect(page.getByText(/The provider's final status \(approved\) disagrees/)).toBeVisible();
  await expect(timeline.getByRole("listitem").filter({ hasText: "Case closed: final status approved" })).toBeVisible();

  // Back in review upstream: the same case reopens, its history kept.
  await moveUpstream(publicId, "review");
  await expect.poll(async () => (await caseOf(page.request, publicId)).status, { timeout: 20_000 }).toBe("open");
  await page.reload();
  await expect(timeline.getByRole("listitem").filter({ hasText: "Case reopened" })).toBeVisible();
  await expect(timeline.getByRole("listitem").filter({ hasText: "Recommendation: Reprove" })).toBeVisible();
});

test("a second analyst who tries to take a held case is told who holds it (409)", async ({
  analystPage: page,
  adminPage: admin,
  browser,
  staff,
}) => {
  const { publicId } = await reviewCase(page.request);

  // A second analyst, invited by the admin, who sets a password of their own.
  const email = `second-${Date.now()}@sandbox.local`;
  const invited = await withStepUp(admin.request, staff.admin.password, () =>
    admin.request.post("/api/staff", { headers: WRITE, data: { email, name: "Second Analyst", role: "analyst" } }),
  );
  expect(invited.status()).toBe(201);
  const { oneTimePassword } = (await invited.json()) as { oneTimePassword: string };
  const context = await browser.newContext();
  await signInContext(context, { email, password: oneTimePassword });
  const changed = await context.request.post("/api/account/password", {
    headers: WRITE,
    data: { currentPassword: oneTimePassword, newPassword: `second-analyst-${Date.now()}` },
  });
  expect(changed.ok()).toBe(true);
  const second = await context.newPage();

  await second.goto(`/verifications/${publicId}`);
  const claim = second.getByRole("button", { name: "Assign to me" });
  await expect(claim).toBeVisible();
  // The first analyst claims it meanwhile.
  const first = await page.request.post(`/api/cases/${encodeURIComponent(publicId)}/assignment`, {
    headers: WRITE,
    data: { assignee: "me" },
  });
  expect(first.status()).toBe(200);
  const refused = second.waitForResponse((response) => response.url().endsWith("/assignment"));
  await claim.click();
  expect((await refused).status()).toBe(409);
  await expect(second.getByText(`This case is assigned to ${staff.analyst.email}.`)).toBeVisible();
  await expect(second.getByText(`Taken by ${staff.analyst.email}.`)).toBeVisible();
  await context.close();
});

test("search from the top bar by ref_id and by CPF opens the verification; the typed CPF is never in a URL", async ({
  analystPage: page,
}) => {
  const { publicId, refId, cpf } = await reviewCase(page.request);
  const urls: string[] = [];
  page.on("request", (request) => urls.push(request.url()));
  await page.goto("/cases");

  const search = page.getByRole("search", { name: "Find a verification" });
  // A search sent before the page's code runs is refused (its button drawn disabled, components/ui/button.tsx).
  const ready = () => expect(search.getByRole("button", { name: "Search" })).toBeEnabled();
  await ready();
  await search.getByLabel("Search by").selectOption("ref_id");
  await search.getByRole("textbox").fill(refId);
  await search.getByRole("textbox").press("Enter");
  await expect(page).toHaveURL(new RegExp(`/verifications/${publicId}$`));

  await page.goto("/cases");
  await ready();
  await search.getByLabel("Search by").selectOption("cpf");
  await search.getByRole("textbox").fill(cpf);
  await search.getByRole("textbox").press("Enter");
  await expect(page).toHaveURL(new RegExp(`/verifications/${publicId}$`));

  const digits = cpf.replace(/\D/g, "");
  expect(urls.length).toBeGreaterThan(0);
  for (const url of urls) {
    expect(decodeURIComponent(url).replace(/\D/g, "")).not.toContain(digits);
  }
});

test.describe("the queue page", () => {
  test.use({ viewport: { width: 1440, height: 900 } });

  test("shows at least 15 rows at 1440x900, lists its shortcuts on ?, and axe finds nothing", async ({
    analystPage: page,
    adminPage: admin,
  }) => {
    // Enough open cases of the test's own making: the admin's sync pulls the sandbox's review list in.
    const synced = await admin.request.post("/api/cases/sync", { headers: WRITE });
    expect(synced.ok()).toBe(true);
    await page.goto("/cases?queue=open");
    const rows = page.getByTestId("case-row");
    await expect(rows.nth(14)).toBeVisible();
    // Hydrated (the shortcuts listen once React runs) and settled (no late layout) before measuring.
    await page.waitForLoadState("networkidle");
    const visible = await rows.evaluateAll(
      (elements) =>
        elements.filter((element) => {
          const box = element.getBoundingClientRect();
          return box.height > 0 && box.top >= 0 && box.bottom <= window.innerHeight;
        }).length,
    );
    expect(visible).toBeGreaterThanOrEqual(15);

    await page.locator("body").press("?");
    const dialog = page.getByRole("dialog", { name: "Keyboard shortcuts" });
    await expect(dialog).toBeVisible();
    for (const shortcut of [
      "Next case in the list",
      "Previous case in the list",
      "Open the selected case",
      "Assign the selected case to me",
    ]) {
      await expect(dialog.getByText(shortcut)).toBeVisible();
    }
    await page.keyboard.press("Escape");
    await expect(dialog).toBeHidden();

    const results = await (await settledAxe(page)).analyze();
    expect(results.violations).toEqual([]);
  });
});
