import type { Page } from "@playwright/test";

import { baseURL } from "@/playwright.config";

import { settledAxe } from "./axe";
import { answerStepUp, expect, signInContext, test } from "./fixtures";

/*
 * Roles as permission sets, in the browser: an admin makes a custom role at /admin/roles (phone and desktop,
 * keyboard, axe), invites a member with it at /admin/staff, and the member, once signed in, reads the
 * verification list but reaches no admin page, sees no admin link, gets 403 from the routes the role lacks, and
 * sees masked data and no images (the role holds neither personal_data.unmasked nor media.read).
 */

const DESKTOP = { width: 1440, height: 900 };
const PHONE = { width: 390, height: 844 };

async function expectNoViolations(page: Page, where: string) {
  const result = await (await settledAxe(page)).analyze();
  const summary = result.violations.map(
    (violation) => `${violation.id}: ${violation.nodes.map((node) => node.target.join(" ")).join("; ")}`,
  );
  expect(summary, `axe on ${where}`).toEqual([]);
}

const fitsWidth = (page: Page) => page.evaluate(() => document.documentElement.scrollWidth <= document.documentElement.clientWidth);

test("/admin/roles lists the built-in roles, fits a phone and a desktop, and passes axe", async ({ adminPage: page }) => {
  for (const viewport of [PHONE, DESKTOP]) {
    await page.setViewportSize(viewport);
    await page.goto("/admin/roles");
    await expect(page.getByRole("heading", { level: 1, name: "Roles" })).toBeVisible();
    for (const name of ["Viewer", "Analyst", "Reviewer", "Auditor", "Admin"]) {
      await expect(page.getByRole("heading", { level: 2, name, exact: true })).toBeVisible();
    }
    expect(await fitsWidth(page)).toBe(true);
    await expectNoViolations(page, `/admin/roles at ${viewport.width}`);
  }
  // Built-in roles offer no edit.
  await expect(page.getByRole("button", { name: "Edit: Analyst" })).toHaveCount(0);
  // The editor, by keyboard, at phone width, is axe clean too.
  await page.setViewportSize(PHONE);
  await page.getByRole("button", { name: "New role" }).focus();
  await page.keyboard.press("Enter");
  const dialog = page.getByRole("dialog", { name: "New role" });
  await expect(dialog.getByLabel("Name", { exact: true })).toBeFocused();
  expect(await fitsWidth(page)).toBe(true);
  await expectNoViolations(page, "the role editor");
  await page.keyboard.press("Escape");
  await expect(dialog).toBeHidden();
});

test("a custom role's member reads the list but no admin page, and is refused what the role lacks", async ({
  adminPage: admin,
  browser,
  staff,
}) => {
  // Saving a role and inviting need a step-up: the admin (no factor) answers with the password.
  await answerStepUp(admin, staff.admin.password);
  const roleName = `Readers ${Date.now()}`;
  await admin.goto("/admin/roles");
  await admin.getByRole("button", { name: "New role" }).click();
  const editor = admin.getByRole("dialog", { name: "New role" });
  await editor.getByLabel("Name", { exact: true }).fill(roleName);
  await editor.getByRole("checkbox", { name: /Read verifications/ }).check();
  await editor.getByRole("checkbox", { name: /Read cases/ }).check();
  await editor.getByRole("button", { name: "Save" }).click();
  await expect(editor).toBeHidden();
  const card = admin.getByTestId("role-card").filter({ has: admin.getByRole("heading", { name: roleName }) });
  await expect(card).toContainText("Read verifications");
  await expect(card).toContainText("No members");

  // Invite a member with it.
  const email = `reader-${Date.now()}@sandbox.local`;
  await admin.goto("/admin/staff");
  await admin.getByRole("button", { name: "Invite staff member" }).click();
  const invite = admin.getByRole("dialog");
  await invite.getByLabel("Email").fill(email);
  await invite.getByLabel("Name", { exact: true }).fill("Reader");
  await invite.getByLabel("Role").selectOption({ label: roleName });
  await invite.getByRole("button", { name: "Create account" }).click();
  await expect(admin.getByTestId("one-time-password")).toBeVisible();
  const oneTimePassword = (await admin.getByTestId("one-time-password").textContent())!.trim();
  expect(oneTimePassword.length).toBeGreaterThan(8);
  await admin.keyboard.press("Escape");
  await expect(admin.getByRole("row").filter({ hasText: email })).toContainText(roleName);

  // The member signs in and replaces the one-time password.
  const context = await browser.newContext({ baseURL });
  const page = await context.newPage();
  await signInContext(context, { email, password: oneTimePassword });
  const changed = await page.request.post("/api/account/password", {
    data: { currentPassword: oneTimePassword, newPassword: "a-long-new-password-42" },
    headers: { origin: baseURL },
  });
  expect(changed.status()).toBeLessThan(300);

  await page.goto("/verifications");
  await expect(page.getByRole("heading", { level: 1 })).toBeVisible();
  await expect(page.getByRole("table").first()).toBeVisible();
  const nav = page.getByRole("navigation").first();
  await expect(nav.getByRole("link", { name: /Verifications|Verificações/ })).toBeVisible();
  await expect(nav.getByRole("link", { name: /Admin/ })).toHaveCount(0);
  await expect(nav.getByRole("link", { name: /Lookups|Consultas/ })).toHaveCount(0);
  for (const path of ["/admin", "/admin/roles", "/admin/staff", "/admin/audit", "/lookups/cpf", "/kyc"]) {
    await page.goto(path);
    await expect(page, `${path} is not this member's`).toHaveURL(/\/not-allowed$/);
  }
  for (const [method, path] of [
    ["GET", "/api/roles"],
    ["GET", "/api/staff"],
    ["GET", "/api/audit"],
    ["GET", "/api/verifications/export"],
    ["POST", "/api/lookups/cpf"],
  ] as const) {
    const response = await page.request.fetch(path, { method, headers: { origin: baseURL }, data: method === "POST" ? {} : undefined });
    expect(response.status(), `${method} ${path}`).toBe(403);
  }
  // Masked data and no images (the role holds neither personal_data.unmasked nor media.read), whatever the key returns.
  const list = await page.request.get("/api/verifications?per_page=20");
  expect(list.status()).toBe(200);
  const listed = (await list.json()) as { items: Array<{ publicId: string }> };
  // Eleven digits standing alone (not the digits of a longer word, such as a public id's last group: "94725104116d").
  expect(JSON.stringify(listed)).not.toMatch(/(?<![\dA-Za-z*])\d{3}\.?\d{3}\.?\d{3}-?\d{2}(?![\dA-Za-z])/);
  const first = listed.items[0]!.publicId;
  expect((await page.request.get(`/api/verifications/${first}/media`)).status()).toBe(403);
  await page.goto(`/verifications/${first}`);
  await expect(page.getByTestId("media-not-permitted")).toBeVisible();
  await expect(page.getByTestId("masked-marker").first()).toBeVisible();
  await expect(page.locator('img[src*="/api/media/"]')).toHaveCount(0);
  // No formatted CPF in the page (its HTML and the react-query cache it carries) but the search box's placeholder.
  const cpfs = [...(await page.content()).matchAll(/(?<![\d*])\d{3}\.\d{3}\.\d{3}-\d{2}(?!\d)/g)].map((match) => match[0]);
  expect(cpfs.filter((cpf) => cpf !== "000.000.000-00")).toEqual([]);
  await expect(page.getByText(/^\*\*\*\.\d{3}\.\d{3}-\*\*$/).first()).toBeVisible();
  await context.close();
});
