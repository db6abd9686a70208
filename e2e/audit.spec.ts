import fs from "node:fs";

import type { Page } from "@playwright/test";

import { baseURL } from "@/playwright.config";

import { expect, SAME_ORIGIN, test } from "./fixtures";

/*
 * The audit page in a real browser against the production build: filters in the URL, the CPF search
 * kept out of it, keyset "load older", the streamed export with its progress, the page's own access on
 * the trail, and the admin-only rule.
 */

const CPF = "52998224725";

async function inEnglish(page: Page): Promise<void> {
  await page.context().addCookies([{ name: "NEXT_LOCALE", value: "en", url: baseURL }]);
}

test.describe("audit log", () => {
  test("an admin filters the log, searches by CPF without it reaching a URL, and sees their own access", async ({ adminPage: page }) => {
    await inEnglish(page);
    // Something about a CPF to find: a lookup through the API, as the lookup form would send it.
    const lookup = await page.request.post("/api/lookups/cpf", {
      headers: { origin: baseURL },
      data: { cpf: CPF, source: "receita", purpose: "audit page browser test" },
    });
    expect(lookup.status()).toBeLessThan(500);

    const requested: string[] = [];
    page.on("request", (request) => requested.push(request.url()));

    await page.goto("/admin/audit");
    await expect(page.getByRole("heading", { level: 1, name: "Audit log" })).toBeVisible();
    await expect(page.getByText("Times shown in America/Sao_Paulo.")).toBeVisible();
    const table = page.getByRole("table", { name: "Audit events, newest first" });
    await expect(table.getByRole("row").nth(1)).toBeVisible();

    // Filter by action: the URL holds it, every row is that action.
    await page.getByLabel("Action", { exact: true }).fill("auth.sign_in");
    await page.getByRole("button", { name: "Apply filters" }).click();
    await expect(page).toHaveURL(/\/admin\/audit\?action=auth\.sign_in$/);
    // Read until the filtered rows are drawn: the unfiltered table has sign-ins too, and a one-time read of its rows
    // while they were being replaced found none (a clean-clone run).
    await expect.poll(async () => new Set(await table.locator("tbody code").allTextContents())).toEqual(new Set(["auth.sign_in"]));

    // Search by CPF: only that person's events, masked, and the CPF never in the address or a request URL.
    await page.getByRole("button", { name: "Clear filters" }).click();
    // Cleared at once, and what is typed next stays while the address catches up (it was lost to a redrawn form).
    await expect(page.getByLabel("Action", { exact: true })).toHaveValue("");
    await page.getByLabel("Search by CPF").fill(CPF);
    await expect(page).toHaveURL(/\/admin\/audit$/);
    await expect(page.getByLabel("Search by CPF")).toHaveValue("529.982.247-25");
    await page.getByRole("button", { name: "Apply filters" }).click();
    await expect(page.getByText("Searching by CPF ***.982.247-**")).toBeVisible();
    await expect(table.locator("tbody tr").first()).toContainText("***.982.247-**");
    const targets = await table.locator("tbody tr td:nth-child(4) .font-mono").allTextContents();
    expect(targets.length).toBeGreaterThan(0);
    // The person's lookups (the masked CPF) and, when their CPF is known here, their verifications' events.
    expect(targets).toContain("***.982.247-**");
    for (const target of targets) expect(target).toMatch(/^\*\*\*\.982\.247-\*\*$|^[A-Za-z0-9_-]+$/);
    expect(page.url()).not.toContain(CPF);
    expect(requested.filter((url) => url.includes(CPF) || url.includes("529.982.247"))).toEqual([]);
    // The typed CPF stays in its input (a value, not page text); nothing on the page shows it in full.
    await expect(page.locator("body")).not.toContainText("529.982.247-25");

    // The page's own views are on the trail, the CPF search among them, under the masked CPF.
    await page.getByRole("button", { name: "Clear filters" }).click();
    await expect(page.getByLabel("Search by CPF")).toHaveValue("");
    await page.getByLabel("Action", { exact: true }).fill("audit.view");
    await page.getByRole("button", { name: "Apply filters" }).click();
    await expect(page).toHaveURL(/action=audit\.view/);
    await expect(table.getByRole("cell", { name: /Audit log viewed/ }).first()).toBeVisible();
    await expect(table.locator("tbody")).toContainText("***.982.247-**");

    // Back and Forward walk the views, the form showing each view's filters.
    await page.goBack();
    await expect(page).toHaveURL(/\/admin\/audit$/);
    await expect(page.getByLabel("Action", { exact: true })).toHaveValue("");
    await page.goForward();
    await expect(page).toHaveURL(/action=audit\.view/);
    await expect(page.getByLabel("Action", { exact: true })).toHaveValue("audit.view");
  });

  test("the export downloads the filtered CSV with progress, and is recorded", async ({ adminPage: page }) => {
    await inEnglish(page);
    await page.goto("/admin/audit?outcome=success");
    await expect(page.getByRole("table")).toBeVisible();
    const download = page.waitForEvent("download");
    await page.getByRole("button", { name: "Export CSV" }).click();
    const file = await download;
    expect(file.suggestedFilename()).toMatch(/^audit-\d{8}-\d{6}\.csv$/);
    const text = fs.readFileSync((await file.path())!, "utf8");
    const lines = text.split("\r\n").filter(Boolean);
    expect(lines[0]).toBe(
      "\uFEFFid,at,actor_id,actor_email,action,target_type,target,purpose,outcome,ip,details,prev_hash,hash,connection",
    );
    expect(lines.length).toBeGreaterThan(1);
    expect(lines.slice(1).every((line) => line.split(",")[8] === "success")).toBe(true);
    await expect(page.getByRole("status").filter({ hasText: /^Exported \d+ rows? \(/ })).toBeVisible();

    await page.goto("/admin/audit?action=audit.export");
    await expect(page.getByRole("table").locator("tbody tr").first()).toContainText("Audit log exported");
    await expect(page.getByRole("table").locator("tbody tr").first()).toContainText("outcome");
  });

  test("opening a case reads as one row naming the case, that opens onto its events, each naming who by name", async ({
    adminPage: page,
    staff,
  }) => {
    await inEnglish(page);
    const list = await page.request.get("/api/verifications?status=review&per_page=1");
    const publicId = ((await list.json()) as { items: Array<{ publicId: string }> }).items[0]!.publicId;
    await page.goto(`/verifications/${publicId}`);
    // The page's own reads after its render (the case, its images) join the render's page view.
    await page.waitForLoadState("networkidle");

    await page.goto(`/admin/audit?target=${encodeURIComponent(publicId)}`);
    const table = page.getByRole("table", { name: "Audit events, newest first" });
    // This member's opening: the other worker may open (or read ahead) the same case at the same moment.
    const summary = table.locator("tr[data-group-size]").filter({ hasText: staff.admin.email }).first();
    const opened = summary.getByRole("button", { name: new RegExp(`^Opened case ${publicId} — \\d+ events$`) });
    await expect(opened).toBeVisible();
    await expect(opened).toHaveAttribute("aria-expanded", "false");
    expect(Number(await summary.getAttribute("data-group-size"))).toBeGreaterThanOrEqual(2);
    // Who: the member's name above the email, not the email alone.
    await expect(summary.locator("td").nth(1)).toContainText("@");
    await expect(summary.locator("td").nth(1).locator(".font-medium")).not.toBeEmpty();
    await opened.click();
    await expect(opened).toHaveAttribute("aria-expanded", "true");
    // Its own rows (the button controls them), not another group's hidden ones: among them the read that opened the
    // case (what names the row). Which read: the page's render (verification.view) or the case's (case.view), as an
    // event about the case written meanwhile (a job's, the other worker's) may split one page view into two rows.
    const rowIds = (await opened.getAttribute("aria-controls"))!.split(" ");
    const groupRows = table.locator(rowIds.map((id) => `[id="${id}"]`).join(", "));
    await expect(
      groupRows
        .locator("code")
        .filter({ hasText: /^(verification|case)\.view$/ })
        .first(),
    ).toBeVisible();
  });

  test("the server draws the first page; Load older events continues the same table from where it ends", async ({
    adminPage: page,
    staff,
  }) => {
    await inEnglish(page);
    // More than a page of this member's reads of the log: each API read is one event of its own.
    const actor = encodeURIComponent(staff.admin.email);
    for (let read = 0; read < 55; read += 1)
      expect((await page.request.get("/api/audit?limit=1", { headers: SAME_ORIGIN })).status()).toBe(200);

    const requested: string[] = [];
    page.on("request", (request) => {
      if (new URL(request.url()).pathname === "/api/audit") requested.push(request.url());
    });
    await page.goto(`/admin/audit?action=audit.view&actor=${actor}`);
    const table = page.getByRole("table", { name: "Audit events, newest first" });
    const ids = async () =>
      await table.locator("tbody tr[data-event-id]").evaluateAll((rows) => rows.map((row) => Number(row.getAttribute("data-event-id"))));
    await expect(page.getByText("50 events shown · Older events match too.")).toBeVisible();
    const first = await ids();
    expect(first).toHaveLength(50);
    // Drawn by the server: the browser asked the API for nothing.
    expect(requested).toEqual([]);

    await page.getByRole("button", { name: "Load older events" }).click();
    // The older rows' code comes with the first older page: read once they are drawn.
    await expect.poll(async () => (await ids()).length).toBeGreaterThan(50);
    const all = await ids();
    await expect(page.getByText(`${all.length} events shown`)).toBeVisible();
    expect(all.slice(0, 50)).toEqual(first);
    // Newest first across the two pages, no event twice.
    expect(all).toEqual([...all].sort((a, b) => b - a));
    expect(new Set(all).size).toBe(all.length);
    expect(requested).toHaveLength(1);
    expect(new URL(requested[0]!).searchParams.get("cursor")).toBeTruthy();
    expect(new URL(requested[0]!).searchParams.get("action")).toBe("audit.view");
  });

  test("an analyst cannot open the log: the page sends them away and the API refuses", async ({ analystPage: page }) => {
    await page.goto("/admin/audit");
    await expect(page).not.toHaveURL(/\/admin\/audit/);
    const response = await page.request.get("/api/audit", { headers: SAME_ORIGIN });
    expect(response.status()).toBe(403);
    const csv = await page.request.get("/api/audit?format=csv", { headers: SAME_ORIGIN });
    expect(csv.status()).toBe(403);
  });
});
