import { baseURL } from "@/playwright.config";

import { caseOf, reviewCase, WRITE } from "./case-support";
import { expect, signInContext, test } from "./fixtures";
import { newMember } from "./step-up-support";

/*
 * The queue at 1440×900: every column in the table's width with no sideways scroll, a full screen of rows, each
 * row's priority saying why and its person named in one line (masked: this suite's key masks names, and a member
 * without personal_data.unmasked gets them masked whatever the key); the Open tab without one's own recommendation waiting for confirmation; a saved view
 * listed in the navigation under its page, reached by keyboard on the desktop and shown in the phone's menu.
 */

/** A name as the masking writes it: the first letter of each word, then `***` ("M*** d*** S***"). */
const MASKED_NAME = /^\S\*\*\*( \S\*\*\*)*$/u;

test.describe("the queue at 1440×900", () => {
  test.use({ viewport: { width: 1440, height: 900 } });

  test("fits every column with no sideways scroll and shows at least 18 rows", async ({ analystPage: page, adminPage: admin }) => {
    const synced = await admin.request.post("/api/cases/sync", { headers: WRITE });
    expect(synced.ok()).toBe(true);
    await page.goto("/cases?queue=open");
    const rows = page.getByTestId("case-row");
    await expect(rows.nth(17)).toBeVisible();
    await page.waitForLoadState("networkidle");

    const frame = page.locator("[data-table-frame]");
    const fit = await frame.evaluate((element) => ({ scrollWidth: element.scrollWidth, clientWidth: element.clientWidth }));
    console.log(`table scroller: scrollWidth ${fit.scrollWidth} px, clientWidth ${fit.clientWidth} px`);
    expect(fit.scrollWidth).toBeLessThanOrEqual(fit.clientWidth);

    const box = (await frame.boundingBox())!;
    const headers = page.getByRole("columnheader");
    for (const name of ["Case", "Person", "Priority · why", "Due", "Assignee", "State"]) {
      const header = headers.filter({ hasText: name }).first();
      await expect(header).toBeVisible();
      const edges = (await header.boundingBox())!;
      expect(edges.x).toBeGreaterThanOrEqual(box.x);
      expect(edges.x + edges.width).toBeLessThanOrEqual(box.x + box.width + 0.5);
    }

    const visible = await rows.evaluateAll(
      (elements) =>
        elements.filter((element) => {
          const rect = element.getBoundingClientRect();
          return rect.height > 0 && rect.top >= 0 && rect.bottom <= window.innerHeight;
        }).length,
    );
    console.log(`rows on the first screen at 1440×900: ${visible}`);
    expect(visible).toBeGreaterThanOrEqual(18);

    // Each row's priority says why in words (a flag, the time, review), never a bare level.
    const reasons = await rows.evaluateAll((elements) =>
      elements
        .slice(0, 18)
        .map((element) => element.querySelector("[data-testid=case-priority]")?.textContent ?? element.textContent ?? ""),
    );
    for (const reason of reasons)
      expect(reason).toMatch(/priority: .*(PEP|Restrictive|Facematch|risk|Deceased|Liveness|overdue|due in|In review|Nothing pressing)/);

    // Each row names its person (the sync read every one with its name), masked, in one line with the whole on hover.
    const names = await rows.evaluateAll((elements) =>
      elements.slice(0, 18).map((element) => {
        const name = element.querySelector<HTMLElement>("[data-testid=case-person-name]");
        return name ? { text: name.textContent, title: name.title, height: name.getBoundingClientRect().height } : null;
      }),
    );
    console.log(`rows naming their person among the first 18: ${names.filter(Boolean).length}`);
    for (const name of names) {
      expect(name).not.toBeNull();
      expect(name!.text).toMatch(MASKED_NAME);
      expect(name!.title).toBe(name!.text);
      expect(name!.height).toBeLessThan(20);
    }
  });

  test("a member without personal_data.unmasked sees each case's person by a masked name, and the queue still fits", async ({
    adminPage: admin,
    browser,
    staff,
  }) => {
    test.setTimeout(120_000);
    const member = await newMember(admin.request, browser, staff.admin, "viewer", "queue");
    const context = await browser.newContext({ baseURL, viewport: { width: 1440, height: 900 } });
    try {
      await signInContext(context, member);
      const viewer = await context.newPage();
      // Every row of the first page, not one case of this test's: another worker's test may take, decide or
      // escalate any case while this one runs, and the rule holds for each row alike.
      await viewer.goto("/cases?queue=open");
      const rows = viewer.getByTestId("case-row");
      await expect(rows.first()).toBeVisible();
      const names = await rows.evaluateAll((elements) =>
        elements.map((element) => {
          const name = element.querySelector<HTMLElement>("[data-testid=case-person-name]");
          return { row: element.textContent?.slice(0, 60), text: name?.textContent ?? null, title: name?.title ?? null };
        }),
      );
      expect(names.length).toBeGreaterThan(0);
      for (const name of names) {
        expect(name.text, `the person's name in the row "${name.row}"`).toMatch(MASKED_NAME);
        expect(name.title, `the whole name on hover in the row "${name.row}"`).toBe(name.text);
      }
      const frame = viewer.locator("[data-table-frame]");
      const fit = await frame.evaluate((element) => ({ scrollWidth: element.scrollWidth, clientWidth: element.clientWidth }));
      expect(fit.scrollWidth).toBeLessThanOrEqual(fit.clientWidth);
    } finally {
      await context.close();
    }
  });

  test("the Open tab leaves out my recommendation waiting for confirmation; Waiting for confirmation lists it", async ({
    analystPage: page,
  }) => {
    const { publicId } = await reviewCase(page.request);
    const row = page.getByTestId("case-row").filter({ hasText: publicId.slice(0, 13) });
    // Today's cases only: a page short enough to hold this one whatever else is open.
    const open = "/cases?queue=open&age=under_1d&per_page=200";
    await page.goto(open);
    await expect(row).toHaveCount(1);

    const path = `/api/cases/${encodeURIComponent(publicId)}`;
    expect((await page.request.post(`${path}/assignment`, { headers: WRITE, data: { assignee: "me" } })).status()).toBe(200);
    const recorded = await page.request.post(`${path}/outcome`, {
      headers: WRITE,
      data: { recommendation: "reprove", reasons: ["document_mismatch"], comment: "Dates differ." },
    });
    expect(recorded.status()).toBe(200);
    expect((await caseOf(page.request, publicId)).outcomeState).toBe("pending_confirmation");

    await page.goto(open);
    await expect(page.getByRole("navigation", { name: "Queues" })).toBeVisible();
    await expect(row).toHaveCount(0);
    await page
      .getByRole("navigation", { name: "Queues" })
      .getByRole("button", { name: /Waiting for confirmation/ })
      .click();
    await expect(page).toHaveURL(/queue=confirming/);
    await expect(row).toHaveCount(1);
    await expect(row).toContainText("Waiting for confirmation");
  });

  test("a saved view is a link under Cases in the navigation, reached by keyboard, and opens its query", async ({ analystPage: page }) => {
    const name = `PEP today ${Date.now().toString(36)}`;
    const saved = await page.request.post("/api/views", { headers: WRITE, data: { scope: "cases", name, query: "queue=open&flag=pep" } });
    expect(saved.status()).toBe(201);
    await page.goto("/cases?queue=open");
    const navigation = page.getByRole("navigation", { name: "Main navigation" });
    await navigation.getByRole("link", { name: "Cases", exact: true }).focus();
    const link = navigation.getByRole("list", { name: "Saved views of Cases" }).getByRole("link", { name });
    await expect(link).toBeVisible();
    // Tab from the entry goes through its views, in order; the new one is the last.
    const count = await navigation.getByRole("list", { name: "Saved views of Cases" }).getByRole("link").count();
    for (let step = 0; step < count; step += 1) {
      await page.keyboard.press("Tab");
      await expect(navigation.getByRole("list", { name: "Saved views of Cases" }).getByRole("link").nth(step)).toBeFocused();
      if (step < count - 1) await page.keyboard.press("Tab"); // past the view's delete button
    }
    await expect(link).toBeFocused();
    await page.keyboard.press("Enter");
    await expect(page).toHaveURL(/[?&]flag=pep(&|$)/);
    await expect(page.getByRole("combobox", { name: /^Red flag/ })).toHaveValue("pep");
    // Gone again, so another test's keyboard walk through the list does not meet it.
    const { view } = (await saved.json()) as { view: { id: string } };
    expect((await page.request.delete(`/api/views/${view.id}`, { headers: WRITE })).ok()).toBe(true);
  });
});

test.describe("the saved views on a phone", () => {
  test.use({ viewport: { width: 390, height: 844 } });

  test("are listed under their page in the menu, with no sideways scroll", async ({ analystPage: page }) => {
    const name = `Overdue ${Date.now().toString(36)}`;
    const saved = await page.request.post("/api/views", {
      headers: WRITE,
      data: { scope: "cases", name, query: "queue=open&overdue=true" },
    });
    expect(saved.status()).toBe(201);
    await page.goto("/cases?queue=open");
    await page.getByTestId("menu-button").click();
    const link = page.getByRole("list", { name: "Saved views of Cases" }).getByRole("link", { name });
    await expect(link).toBeVisible();
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
    await link.click();
    await expect(page).toHaveURL(/[?&]overdue=true(&|$)/);
    const { view } = (await saved.json()) as { view: { id: string } };
    expect((await page.request.delete(`/api/views/${view.id}`, { headers: WRITE })).ok()).toBe(true);
  });
});
