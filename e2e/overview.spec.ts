import fs from "node:fs";

import type { Page } from "@playwright/test";

import { baseURL } from "@/playwright.config";

import { settledAxe } from "./axe";
import { expect, sandbox, test } from "./fixtures";

/*
 * The overview at `/` in a real browser, against a production build and the sandbox (embedded default
 * key `sbx_core_view_media`). Expected numbers are read from the sandbox's own list totals.
 */

const STATUSES = ["approved", "review", "reproved", "started", "not_opened"] as const;
const DAY_MS = 86_400_000;

function saoPauloDay(days: number): string {
  return new Intl.DateTimeFormat("en-CA", { timeZone: "America/Sao_Paulo" }).format(new Date(Date.now() + days * DAY_MS));
}

async function inLocale(page: Page, locale: "en" | "pt-BR"): Promise<void> {
  await page.context().addCookies([{ name: "NEXT_LOCALE", value: locale, url: baseURL }]);
}

/** The sandbox's own total for a filter set, asked directly with the dashboard's key. */
async function sandboxTotal(query: Record<string, string>): Promise<number> {
  const params = new URLSearchParams({ ...query, per_page: "1" });
  const response = await fetch(`${sandbox.url}/core/public/validations-persons?${params}`, {
    headers: { "X-API-Key": "sbx_core_view_media" },
  });
  expect(response.ok).toBe(true);
  return ((await response.json()) as { pagination: { total: number } }).pagination.total;
}

test.describe("overview", () => {
  test("shows the period's verifications by status as the service counts them, each number linking to its list", async ({
    analystPage: page,
  }) => {
    await inLocale(page, "en");
    await page.goto("/?days=7");
    await expect(page.getByRole("heading", { level: 1, name: "Overview" })).toBeVisible();
    await expect(page.getByRole("navigation", { name: "Main navigation" }).getByRole("link", { name: "Overview" })).toHaveAttribute(
      "aria-current",
      "page",
    );
    await expect(page.getByRole("link", { name: "Last 7 days" })).toHaveAttribute("aria-current", "page");
    await expect(page.getByRole("table", { name: `Verifications by status from ${saoPauloDay(-6)} to ${saoPauloDay(0)}` })).toBeVisible();

    // The counts on a closed period (the seven days before today): the other browser tests create and move
    // verifications today, and one of them between the page and the sandbox's count would break the match.
    const from = saoPauloDay(-7);
    const to = saoPauloDay(-1);
    await page.goto(`/?from=${from}&to=${to}`);

    const table = page.getByRole("table", { name: `Verifications by status from ${from} to ${to}` });
    const expected: Record<string, number> = {};
    for (const status of STATUSES) {
      expected[status] = await sandboxTotal({ status, from, to });
      const link = table.locator(`tr[data-status="${status}"]`).getByRole("link");
      await expect(link).toHaveText(expected[status]!.toLocaleString("en"));
      await expect(link).toHaveAttribute("href", `/verifications?status=${status}&from=${from}&to=${to}`);
    }
    const total = await sandboxTotal({ from, to });
    expect(total).toBeGreaterThan(0);
    await expect(table.locator("tfoot").getByRole("link")).toHaveText(total.toLocaleString("en"));

    // The approval rate: approved over approved + review + reproved.
    const analysed = expected.approved! + expected.review! + expected.reproved!;
    const rate = new Intl.NumberFormat("en", { style: "percent", maximumFractionDigits: 1 }).format(expected.approved! / analysed);
    await expect(page.locator('[data-rate="approval"]')).toHaveText(rate);

    // One row per day in the per-day table; the last day's approved count is the sandbox's.
    const daily = page.getByRole("table", { name: "Verifications per day and status" });
    await expect(daily.locator("tbody tr")).toHaveCount(7);
    const lastDayApproved = await sandboxTotal({ status: "approved", from: to, to });
    await expect(daily.locator(`tr[data-day="${to}"] td`).first()).toHaveText(lastDayApproved.toLocaleString("en"));

    // A number opens the filtered list behind it, which counts the same.
    await table.locator('tr[data-status="review"]').getByRole("link").click();
    await expect(page).toHaveURL(`/verifications?status=review&from=${from}&to=${to}`);
    await expect(page.getByText(new RegExp(`· ${expected.review!.toLocaleString("en")} verification`))).toBeVisible();
  });

  test("speaks Portuguese, charts are hidden from assistive technology beside their tables, and axe finds nothing", async ({
    analystPage: page,
  }) => {
    await inLocale(page, "pt-BR");
    await page.goto("/");
    await expect(page.getByRole("heading", { level: 1, name: "Visão geral" })).toBeVisible();
    await expect(page.getByRole("link", { name: "Últimos 30 dias" })).toHaveAttribute("aria-current", "page");
    await expect(page.getByRole("table", { name: "Verificações por dia e status" }).locator("tbody tr")).toHaveCount(30);
    await expect(page.getByRole("heading", { name: "Fila de revisão" })).toBeVisible();
    for (const chart of await page.locator("svg[data-chart]").all()) await expect(chart).toHaveAttribute("aria-hidden", "true");

    const results = await (await settledAxe(page)).analyze();
    expect(
      results.violations.map((violation) => `${violation.id}: ${violation.nodes.map((node) => node.target.join(" ")).join(", ")}`),
    ).toEqual([]);
  });

  test("refuses a bad period by name and keeps what was typed", async ({ analystPage: page }) => {
    await inLocale(page, "en");
    await page.goto("/?from=2026-01-01&to=2026-03-01&colour=red");
    const alert = page.getByRole("alert").filter({ hasText: "This period cannot be shown" });
    await expect(alert).toBeVisible();
    await expect(alert).toContainText("colour: is not accepted");
    await expect(page.getByLabel("From", { exact: true })).toHaveValue("2026-01-01");
    await expect(page.getByLabel("To", { exact: true })).toHaveValue("2026-03-01");
    await expect(page.getByRole("table")).toHaveCount(0);
    await alert.getByRole("link", { name: "Show the last 30 days" }).click();
    await expect(page).toHaveURL(/\/$/);

    // The span limit is named too.
    await page.goto("/?from=2026-01-01&to=2026-03-01");
    await expect(page.getByRole("alert").filter({ hasText: "This period cannot be shown" })).toContainText(
      "from: the period must span at most 31 days",
    );
    await expect((await settledAxe(page)).analyze().then((result) => result.violations.length)).resolves.toBe(0);
  });

  test("counts lookups from the audit trail: admins get links to the audit log, analysts the numbers alone", async ({
    adminPage: page,
    analystPage,
  }) => {
    await inLocale(page, "en");
    const today = saoPauloDay(0);
    const cell = (p: Page) =>
      p
        .getByRole("table", { name: "Successful lookups and exports per day, from the audit trail" })
        .locator(`tr[data-day="${today}"] td[data-action="lookup.cpf_receita"]`);
    const lookup = await page.request.post("/api/lookups/cpf", {
      headers: { origin: baseURL },
      data: { cpf: "52998224725", source: "receita", purpose: "overview browser test" },
    });
    expect(lookup.ok()).toBe(true);

    await page.goto("/?days=7");
    const link = cell(page).getByRole("link");
    const before = Number((await link.textContent())!.replace(/\D/g, ""));
    expect(before).toBeGreaterThanOrEqual(1);
    await expect(link).toHaveAttribute("href", `/admin/audit?action=lookup.cpf_receita&outcome=success&from=${today}&to=${today}`);

    expect(
      (
        await page.request.post("/api/lookups/cpf", {
          headers: { origin: baseURL },
          data: { cpf: "52998224725", source: "receita", purpose: "overview browser test" },
        })
      ).ok(),
    ).toBe(true);
    await expect(async () => {
      await page.reload();
      expect(Number((await cell(page).textContent())!.replace(/\D/g, ""))).toBeGreaterThan(before);
    }).toPass();

    await inLocale(analystPage, "en");
    await analystPage.goto("/?days=7");
    await expect(cell(analystPage)).toHaveText(/\d+/);
    await expect(cell(analystPage).getByRole("link")).toHaveCount(0);
    await expect(analystPage.getByText("The audit log behind these numbers is open to administrators.")).toBeVisible();
  });

  test("prints the report without the navigation or the period form", async ({ analystPage: page }) => {
    await inLocale(page, "en");
    await page.goto("/?days=7");
    await page.emulateMedia({ media: "print" });
    await expect(page.getByRole("navigation", { name: "Main navigation" })).toBeHidden();
    await expect(page.getByRole("button", { name: "Show period" })).toBeHidden();
    await expect(page.getByTestId("overview-period")).toBeVisible();
    await expect(page.locator('svg[data-chart="stacked-bars"]').first()).toBeVisible();
    // The per-day table is printed whole, not inside a scrolling box.
    await expect(page.getByRole("region", { name: "Verifications per day and status" })).toHaveCSS("overflow", "visible");
    // Paper gets no download links.
    await expect(page.getByRole("link", { name: /^Download CSV/ })).toHaveCount(0);
  });

  test("a table's CSV under another connection's address is that connection's", async ({ analystPage: page }) => {
    await inLocale(page, "en");
    const [from, to] = [saoPauloDay(-7), saoPauloDay(-1)];
    await page.goto(`/c/production/?from=${from}&to=${to}`);
    const link = page.getByRole("link", { name: "Download CSV: Verifications by status" });
    await expect(link).toHaveAttribute("href", `/api/overview/export?table=by_status&from=${from}&to=${to}&connection=production`);
  });

  test("downloads a table as CSV from the keyboard, with the totals the page shows", async ({ analystPage: page }) => {
    await inLocale(page, "en");
    // A closed period (the seven days before today): the other browser tests create verifications today,
    // and one created between the page and the download would make the two totals differ.
    const from = saoPauloDay(-7);
    const to = saoPauloDay(-1);
    await page.goto(`/?from=${from}&to=${to}`);
    const table = page.getByRole("table", { name: `Verifications by status from ${from} to ${to}` });
    const pageCount = async (locator: ReturnType<Page["locator"]>) => Number((await locator.innerText()).replace(/\D/g, ""));

    const link = page.getByRole("link", { name: "Download CSV: Verifications by status" });
    await expect(link).toHaveAttribute("href", `/api/overview/export?table=by_status&from=${from}&to=${to}`);
    const download = page.waitForEvent("download");
    await link.focus();
    await page.keyboard.press("Enter");
    const file = await download;
    expect(file.suggestedFilename()).toBe(`overview-by_status-${from}-${to}.csv`);
    const rows = fs
      .readFileSync((await file.path())!, "utf8")
      .replace(/^\uFEFF/, "")
      .split("\r\n")
      .filter(Boolean)
      .map((line) => line.split(","));
    expect(rows[0]).toEqual(["Status", "Verifications", "Share"]);
    const total = rows.at(-1)!;
    expect(total[0]).toBe("Total");
    expect(Number(total[1])).toBe(await pageCount(table.locator("tfoot").getByRole("link")));
    expect(Number(total[1])).toBeGreaterThan(0);
    const review = rows.find((row) => row[0] === "In review");
    expect(Number(review?.[1])).toBe(await pageCount(table.locator('tr[data-status="review"]').getByRole("link")));
  });
});
