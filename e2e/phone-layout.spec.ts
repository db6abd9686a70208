import type { Page } from "@playwright/test";

import { ADMIN_SECTIONS, NAV_ITEMS } from "@/components/layout/nav-items";
import { baseURL } from "@/playwright.config";

import { settledAxe } from "./axe";
import { reviewCase } from "./case-support";
import { expect, test } from "./fixtures";

/*
 * Tables that fit (issue 22, item 9). On a 390×844 phone every page of the navigation is no wider than the
 * screen, the header is one line (the navigation behind a "Menu" disclosure), each table's row actions are in
 * view without a sideways scroll (tables become stacked cards, components/ui/data-table.tsx), every card's field
 * shows its label, and axe finds nothing. At 1440×900 in pt-BR (the longer words) no column header of the verification list or the case
 * queue is cut, and the list's sort says it covers this page only.
 */

const PHONE = { width: 390, height: 844 };
const DESKTOP = { width: 1440, height: 900 };
const HEADER_MAX = 72;

/** Every page of the navigation, as the shell offers it (an admin sees all), and the member's own page. */
const PAGES = [...NAV_ITEMS.map((item) => item.href), ...ADMIN_SECTIONS.map((section) => section.href), "/account"];

async function inLocale(page: Page, locale: "en" | "pt-BR"): Promise<void> {
  await page.context().addCookies([{ name: "NEXT_LOCALE", value: locale, url: baseURL }]);
}

async function expectNoViolations(page: Page, where: string) {
  const result = await (await settledAxe(page)).analyze();
  const summary = result.violations.map(
    (violation) => `${violation.id}: ${violation.nodes.map((node) => node.target.join(" ")).join("; ")}`,
  );
  expect(summary, `axe on ${where}`).toEqual([]);
}

/**
 * The links and buttons of the tables' rows (the list tables, drawn with components/ui/data-table.tsx) that are
 * not inside the viewport's width, or sit in a box that scrolls sideways (content wider than the box): each
 * described, so a failure names them. The overview's day-by-status count grids are matrices, not lists: they
 * stay tables in a named, focusable scroll region, and are checked only for not widening the page.
 */
async function hiddenRowActions(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const problems: string[] = [];
    const width = document.documentElement.clientWidth;
    for (const element of document.querySelectorAll<HTMLElement>("[data-table-frame] table a[href], [data-table-frame] table button")) {
      if (element.getClientRects().length === 0) continue; // not rendered (a hidden header, a closed menu)
      const name = `${element.tagName.toLowerCase()} "${(element.getAttribute("aria-label") ?? element.textContent ?? "").trim().slice(0, 40)}"`;
      const box = element.getBoundingClientRect();
      if (box.left < 0 || box.right > width + 0.5)
        problems.push(`${name} outside the screen (${Math.round(box.left)}–${Math.round(box.right)})`);
      for (let parent = element.parentElement; parent; parent = parent.parentElement) {
        const overflow = getComputedStyle(parent).overflowX;
        if ((overflow === "auto" || overflow === "scroll" || overflow === "hidden") && parent.scrollWidth > parent.clientWidth + 1) {
          problems.push(`${name} inside a box that scrolls sideways (${parent.scrollWidth} > ${parent.clientWidth})`);
          break;
        }
      }
    }
    return problems;
  });
}

/**
 * The cards' fields that show no label: a card draws no column header, so each field names itself, by CSS from its
 * table's `columns` or its own `data-label` (app/globals.css), which no text query of the DOM would see. Read from
 * the drawn label itself, so a rule that stops matching (a selector, its weight) is caught on every table.
 */
async function unlabelledFields(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const problems: string[] = [];
    for (const table of document.querySelectorAll<HTMLElement>("[data-table-frame] table")) {
      const caption = table.querySelector("caption")?.textContent ?? "a table";
      for (const cell of table.querySelectorAll<HTMLElement>(".data-row > [role=cell]:not(.data-actions, .data-title)")) {
        if (cell.getClientRects().length === 0) continue; // a folded row
        const label = getComputedStyle(cell, "::before").content;
        if (label === "none" || label === "normal" || label === '""') {
          const row = cell.parentElement!;
          problems.push(
            `${caption}: field ${Array.from(row.children).indexOf(cell) + 1} ("${(cell.textContent ?? "").trim().slice(0, 30)}")`,
          );
        }
      }
    }
    return [...new Set(problems)];
  });
}

/** Pages whose table loads with them: their first row is waited for before measuring. */
const WITH_ROWS = new Set(["/verifications", "/cases", "/admin/staff", "/admin/audit"]);

/** Checks one page as it is now. */
async function checkPhonePage(page: Page, where: string) {
  await expect(page.getByRole("heading", { level: 1 })).toBeVisible();
  // A row of data (with cells): on a phone the header row is not drawn, so "the second row" needs two records, which
  // only the other tests' data would guarantee.
  const firstRecord = page
    .getByRole("table")
    .first()
    .getByRole("row")
    .filter({ has: page.getByRole("cell") })
    .first();
  if (WITH_ROWS.has(where)) await expect(firstRecord, `a row on ${where}`).toBeVisible();
  await expect(page.locator("[aria-busy=true]")).toHaveCount(0);
  expect(await page.evaluate(() => document.documentElement.scrollWidth), `width of ${where}`).toBeLessThanOrEqual(PHONE.width);
  const header = (await page.getByRole("banner").boundingBox())!;
  expect(header.height, `header height on ${where}`).toBeLessThanOrEqual(HEADER_MAX);
  expect(await hiddenRowActions(page), `row actions on ${where}`).toEqual([]);
  expect(await unlabelledFields(page), `cards' fields without a label on ${where}`).toEqual([]);
  await expectNoViolations(page, where);
}

test.describe("on a 390×844 phone", () => {
  test.use({ viewport: PHONE });

  // A test per page (the navigation's list, so a new page is checked without editing this file), each in its time.
  for (const path of PAGES)
    test(`${path} fits the screen, with a one-line header, row actions in view and no axe violations`, async ({ adminPage: page }) => {
      await inLocale(page, "pt-BR");
      // The queue's rows are the test's own: a case in review, whatever ran before.
      if (path === "/cases") await reviewCase(page.request);
      await page.goto(path);
      await checkPhonePage(page, path);
      // A page view's grouped events stay folded on a card too (the card's display must not undo `hidden`).
      if (path === "/admin/audit")
        expect(
          await page.locator("tr[hidden]").evaluateAll((rows) => rows.filter((row) => getComputedStyle(row).display !== "none").length),
        ).toBe(0);
    });

  test("a verification's detail with its case (the case page) fits the screen the same way", async ({ adminPage: page }) => {
    await inLocale(page, "pt-BR");
    const { publicId } = await reviewCase(page.request);
    await page.goto(`/verifications/${publicId}`);
    await expect(page.getByTestId("case-assignee")).toBeAttached();
    await checkPhonePage(page, "/verifications/[publicId] (case page)");
  });

  test("the staff and queue rows are cards whose actions are in view", async ({ adminPage: page }) => {
    await inLocale(page, "en");
    await page.goto("/admin/staff");
    const row = page.getByRole("table", { name: /staff/i }).getByRole("row").nth(1);
    await expect(row).toBeVisible();
    const disable = row.getByRole("button", { name: /^(Disable|Enable): / });
    await expect(disable).toBeInViewport();
    const box = (await disable.boundingBox())!;
    expect(box.x + box.width).toBeLessThanOrEqual(PHONE.width);
    // The card names each field itself (the column headers are not drawn on a phone), in the words of the column.
    const labels = await row.getByRole("cell").evaluateAll((cells) => cells.map((cell) => getComputedStyle(cell, "::before").content));
    expect(labels).toContain('"Email"');
  });

  test("the header is one line; the menu opens with the keyboard, takes focus, and Escape closes it", async ({ analystPage: page }) => {
    await inLocale(page, "en");
    await page.goto("/verifications");
    const nav = page.getByRole("navigation", { name: "Main navigation" });
    const menu = page.getByRole("button", { name: "Menu" });
    await expect(menu).toHaveAttribute("aria-expanded", "false");
    await expect(nav).toBeHidden();
    // Every button is refused until the page's code runs: a disabled button takes no focus, and Enter went to the page.
    await expect(menu).toBeEnabled();
    await menu.focus();
    await page.keyboard.press("Enter");
    await expect(menu).toHaveAttribute("aria-expanded", "true");
    await expect(nav).toBeVisible();
    await expect(nav.getByRole("link").first()).toBeFocused();
    await expect(page.getByRole("search")).toBeVisible();
    await page.keyboard.press("Escape");
    await expect(menu).toHaveAttribute("aria-expanded", "false");
    await expect(menu).toBeFocused();
    await expect(nav).toBeHidden();
    // Following a link closes the menu.
    await menu.click();
    await nav.getByRole("link", { name: "Cases" }).click();
    await expect(page).toHaveURL(/\/cases/);
    await expect(menu).toHaveAttribute("aria-expanded", "false");
    await expect(nav).toBeHidden();
  });
});

test.describe("at 1440×900", () => {
  test.use({ viewport: DESKTOP });

  test("the header is as before: navigation and tools shown, no menu button", async ({ analystPage: page }) => {
    await inLocale(page, "en");
    await page.goto("/verifications");
    await expect(page.getByRole("navigation", { name: "Main navigation" })).toBeVisible();
    await expect(page.getByRole("search")).toBeVisible();
    await expect(page.getByRole("button", { name: "Menu" })).toBeHidden();
  });

  test("in pt-BR no column header is cut, and the list's sort says it orders this page only", async ({ adminPage: page }) => {
    await inLocale(page, "pt-BR");
    await reviewCase(page.request);
    for (const path of ["/verifications?per_page=20", "/cases"]) {
      await page.goto(path);
      await expect(page.getByRole("table").getByRole("row").nth(1)).toBeVisible();
      const cut = await page.locator("thead th").evaluateAll((headers) =>
        headers.flatMap((header) =>
          [header, ...header.querySelectorAll<HTMLElement>("*")]
            // Inline boxes have no client width; text for screen readers only (sr-only) is clipped by design.
            .filter((element) => element.getClientRects().length > 0 && getComputedStyle(element).display !== "inline")
            .filter((element) => !element.closest(".sr-only"))
            .filter((element) => element.scrollWidth > element.clientWidth || element.scrollHeight > element.clientHeight + 1)
            .map(
              (element) =>
                `${(header.textContent ?? "").trim()}: <${element.tagName.toLowerCase()} class="${element.className}"> ${element.scrollWidth}×${element.scrollHeight} in ${element.clientWidth}×${element.clientHeight}`,
            ),
        ),
      );
      expect(cut, `headers cut on ${path}`).toEqual([]);
    }
    // The abbreviated headers name the whole column on hover and for assistive technology.
    await page.goto("/verifications?per_page=20");
    await expect(page.getByRole("columnheader", { name: /Score de identidade/ })).toBeVisible();
    await expect(page.locator("thead abbr[title='Responsável']")).toBeVisible();
    const sortRisk = page.getByRole("button", { name: /ordenar por Score de risco/ });
    await expect(sortRisk).toHaveAccessibleDescription(/Ordena só esta página/);
    await sortRisk.click();
    await expect(page).toHaveURL(/sort=-risk_score/);
    await expect(page.getByText(/Ordena só esta página/)).toBeVisible();
  });
});
