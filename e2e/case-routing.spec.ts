import type { Page } from "@playwright/test";

import { settledAxe } from "./axe";
import { reviewCase } from "./case-support";
import { expect, test } from "./fixtures";

/*
 * Routing and bulk actions (issue 23) in a real browser: an admin picks two cases on the queue with `x`
 * and assigns them to a member from the bulk bar, by keyboard alone, and reads each case's result; the
 * routing page, drawn by the server, saves each of its forms and passes axe.
 */

/** Moves the queue's selection to the row of `publicId` with j/k alone. */
async function selectRow(page: Page, publicId: string) {
  const rows = page.getByTestId("case-row");
  const ids = await rows.getByRole("link").allTextContents();
  const index = ids.findIndex((text) => text.startsWith(publicId.slice(0, 13)));
  expect(index).toBeGreaterThanOrEqual(0);
  const current = await rows.evaluateAll((elements) => elements.findIndex((element) => element.getAttribute("aria-current") === "true"));
  const from = Math.max(current, 0);
  for (let step = from; step < index; step += 1) await page.keyboard.press("j");
  for (let step = from; step > index; step -= 1) await page.keyboard.press("k");
  await expect(rows.nth(index)).toHaveAttribute("aria-current", "true");
}

test("an admin assigns two cases to a member in bulk, by keyboard alone, and sees each result", async ({ adminPage: page, staff }) => {
  const first = await reviewCase(page.request);
  const second = await reviewCase(page.request);

  await page.goto("/cases?queue=unassigned&age=under_1d&per_page=200");
  await expect(page.getByTestId("case-row").filter({ hasText: second.publicId.slice(0, 13) })).toHaveCount(1);
  await page.locator("body").press("k");
  await selectRow(page, first.publicId);
  await page.keyboard.press("x");
  await selectRow(page, second.publicId);
  await page.keyboard.press("x");
  const bar = page.getByRole("region", { name: "Bulk actions" });
  await expect(bar.getByText("2 cases picked")).toBeVisible();
  await expect(page.getByRole("checkbox", { name: `Pick case ${first.publicId}` })).toBeChecked();
  await expect(page.getByRole("checkbox", { name: `Pick case ${second.publicId}` })).toBeChecked();

  // The member, chosen with the arrow keys in the focused list, then the button, with Enter.
  const assignee = bar.getByRole("combobox", { name: "Assign to" });
  await assignee.focus();
  for (let step = 0; step < 50; step += 1) {
    const label = await assignee.evaluate((element: HTMLSelectElement) => element.selectedOptions[0]?.textContent ?? "");
    if (label.includes(staff.analyst.email)) break;
    await page.keyboard.press("ArrowDown");
  }
  await expect(assignee).toHaveValue(/[0-9a-f-]{36}/);
  await page.keyboard.press("Tab");
  await expect(bar.getByRole("button", { name: "Assign picked", exact: true })).toBeFocused();
  await page.keyboard.press("Enter");

  const results = page.getByTestId("bulk-results");
  await expect(results).toContainText("2 done, 0 refused");
  await expect(results).toContainText(`${first.publicId}: done`);
  await expect(results).toContainText(`${second.publicId}: done`);
  for (const { publicId } of [first, second]) {
    const response = await page.request.get(`/api/cases/${encodeURIComponent(publicId)}`);
    const body = (await response.json()) as { case: { assignee: { email: string } | null } };
    expect(body.case.assignee?.email).toBe(staff.analyst.email);
  }
});

test("the routing page passes axe", async ({ adminPage: page }) => {
  await page.goto("/admin/cases");
  await expect(page.getByRole("heading", { name: "Case queues and routing" })).toBeVisible();
  const results = await (await settledAxe(page)).analyze();
  expect(results.violations).toEqual([]);
});

test("the routing page is drawn by the server: each form saves on its own, and the page is drawn again after", async ({
  adminPage: page,
}) => {
  // The routing and the screening's budget are the deployment's, and other tests change them meanwhile (the live
  // updates' routing rule, the monitoring's budget): their saves here are answered at the browser's edge with what the
  // server holds, so a save from a page read before such a change cannot undo it. The take mode no test changes is
  // saved for real, as it is.
  for (const url of ["/api/cases/routing", "/api/monitoring/settings"]) {
    const current: unknown = await (await page.request.get(url)).json();
    await page.route(
      (address) => address.pathname === url,
      (route) => (route.request().method() === "PUT" ? route.fulfill({ json: current }) : route.continue()),
    );
  }
  await page.goto("/admin/cases");
  await expect(page.getByRole("heading", { name: "Case queues and routing" })).toBeVisible();
  const forms: Array<{ button: string; url: string; status: string }> = [
    { button: "Save", url: "/api/cases/routing", status: "Saved." },
    { button: "Save how cases are taken", url: "/api/cases/settings", status: "Saved: every case page follows it from its next read." },
    { button: "Save budget", url: "/api/monitoring/settings", status: "Budget saved." },
  ];
  for (const form of forms) {
    const button = page.getByRole("button", { name: form.button, exact: true });
    await expect(button).toBeEnabled();
    const saved = page.waitForResponse(
      (response) => response.request().method() === "PUT" && new URL(response.url()).pathname === form.url,
    );
    // Drawn again by the server: the page's own address asked for its server components.
    const redrawn = page.waitForRequest(
      (request) => new URL(request.url()).pathname === "/admin/cases" && request.headers()["rsc"] === "1",
    );
    await button.click();
    expect((await saved).status()).toBe(200);
    await redrawn;
    await expect(page.getByRole("status").filter({ hasText: form.status })).toBeVisible();
  }
});
