import { randomBytes } from "node:crypto";

import AxeBuilder from "@axe-core/playwright";
import type { APIRequestContext, Browser, Page } from "@playwright/test";
import { Secret, TOTP } from "otpauth";

import { baseURL } from "../playwright.config";
import { expect, signInContext, stepUpDialog, test, withStepUp, WRITE, type Account } from "./fixtures";

/*
 * Step-up in place (issue 21): a sensitive action asks for the second factor in a dialog on top of the form,
 * and the form keeps what was typed; cancel and a wrong code are refused. The browser suite runs with
 * STEP_UP_SECONDS=5 (playwright.config.ts), so a sign-in's own second factor stops counting after a short wait
 * instead of five minutes. Also: an admin ends another member's sessions from the staff page, and that
 * member's next request lands on the sign-in page.
 *
 * Each test makes members of its own through the worker's admin (never the demo accounts).
 */

const PHONE = { width: 390, height: 844 };

/** A member of this test's own: invited by the worker's admin, the one-time password replaced. */
async function newMember(request: APIRequestContext, browser: Browser, admin: Account, role: string, label: string) {
  const email = `e2e-stepup-${label}-${Date.now()}-${randomBytes(3).toString("hex")}@example.com`;
  const name = `Step-up ${label} ${randomBytes(2).toString("hex")}`;
  const invited = await withStepUp(request, admin.password, () =>
    request.post("/api/staff", { headers: WRITE, data: { email, name, role } }),
  );
  expect(invited.status(), `inviting ${email}`).toBe(201);
  const { oneTimePassword } = (await invited.json()) as { oneTimePassword: string };
  const password = `e2e-${randomBytes(12).toString("hex")}`;
  const context = await browser.newContext();
  try {
    await signInContext(context, { email, password: oneTimePassword });
    const changed = await context.request.post("/api/account/password", {
      headers: WRITE,
      data: { currentPassword: oneTimePassword, newPassword: password },
    });
    expect(changed.status(), `replacing the one-time password of ${email}`).toBe(204);
    // That session is not needed any more: end it, so the member's live sessions are the test's own.
    const signedOut = await context.request.post("/api/auth/sign-out", { headers: WRITE, maxRedirects: 0 });
    expect(signedOut.status()).toBeLessThan(400);
  } finally {
    await context.close();
  }
  return { email, password, name };
}

/** RFC 6238 as an authenticator app computes it (SHA-1, 6 digits, 30 s). */
const totpOf = (secret: string) => new TOTP({ secret: Secret.fromBase32(secret), algorithm: "SHA1", digits: 6, period: 30 });

/** The app's code in a time step later than `after` (a code is accepted once): waits for the next step when needed. */
async function codeAfter(totp: TOTP, after: number): Promise<{ code: string; counter: number }> {
  while (totp.counter() <= after) await new Promise((resolve) => setTimeout(resolve, TOTP.remaining({ period: 30 }) + 200));
  return { code: totp.generate(), counter: totp.counter() };
}

/** Six digits that are no code of the app around now. */
function wrongCode(totp: TOTP): string {
  const near = new Set([-2, -1, 0, 1, 2].map((step) => totp.generate({ timestamp: Date.now() + step * 30_000 })));
  for (let candidate = 123456; ; candidate = (candidate + 111111) % 1_000_000) {
    const code = String(candidate).padStart(6, "0");
    if (!near.has(code)) return code;
  }
}

async function expectNoViolations(page: Page, where: string) {
  const result = await new AxeBuilder({ page }).analyze();
  const summary = result.violations.map(
    (violation) => `${violation.id}: ${violation.nodes.map((node) => node.target.join(" ")).join("; ")}`,
  );
  expect(summary, `axe on ${where}`).toEqual([]);
}

const fitsWidth = (page: Page) => page.evaluate(() => document.documentElement.scrollWidth <= document.documentElement.clientWidth);

test("creating an integration key asks for the code in place, keeps the form, refuses cancel and a wrong code", async ({
  browser,
  adminPage,
  staff,
}) => {
  test.setTimeout(180_000);
  const member = await newMember(adminPage.request, browser, staff.admin, "admin", "totp");

  // An authenticator app, enrolled through the API as the member, confirmed with a code computed here.
  const context = await browser.newContext();
  await context.addCookies([{ name: "NEXT_LOCALE", value: "en", url: baseURL }]);
  await signInContext(context, member);
  const enrolled = await context.request.post("/api/account/factors/totp", { headers: WRITE, data: { label: "E2E phone" } });
  expect(enrolled.status(), "starting the authenticator app's enrolment").toBeLessThan(300);
  const { id, secret } = (await enrolled.json()) as { id: string; secret: string };
  const totp = totpOf(secret);
  const first = await codeAfter(totp, -1);
  const verified = await context.request.post(`/api/account/factors/totp/${encodeURIComponent(id)}/verify`, {
    headers: WRITE,
    data: { code: first.code },
  });
  expect(verified.status(), "confirming the authenticator app").toBe(200);
  await context.clearCookies();
  await context.addCookies([{ name: "NEXT_LOCALE", value: "en", url: baseURL }]);

  // A fresh sign-in through the pages: the password, then the code (in a later time step).
  const page = await context.newPage();
  await page.goto("/sign-in?callbackUrl=%2Fadmin%2Fintegrations");
  await page.getByLabel("Email").fill(member.email);
  await page.getByLabel("Password").fill(member.password);
  await page.getByRole("button", { name: "Sign in", exact: true }).click();
  await expect(page).toHaveURL(/\/sign-in\/verify/);
  const signIn = await codeAfter(totp, first.counter);
  await page.getByLabel("Code", { exact: true }).fill(signIn.code);
  await page.getByLabel("Code", { exact: true }).press("Enter");
  await expect(page).toHaveURL(/\/admin\/integrations$/);
  await expect(page.getByRole("heading", { level: 1, name: "Integration keys" })).toBeVisible();

  // The sign-in's code counts as a step-up for STEP_UP_SECONDS (5 s here): let it pass.
  await page.waitForTimeout(6_000);

  await page.setViewportSize(PHONE);
  const label = `E2E step-up ${Date.now()}`;
  await page.getByRole("button", { name: "Create a key" }).click();
  const form = page.getByRole("dialog", { name: "Create an integration key" });
  await form.getByLabel("Domain").fill("https://step-up.example.com/");
  await form.getByLabel("Label").fill(label);
  await form.getByRole("button", { name: "Create key" }).click();

  // Asked in place: the dialog is labelled, the field has the focus, it fits a phone, axe finds nothing.
  const dialog = stepUpDialog(page);
  await expect(dialog).toBeVisible();
  const code = dialog.getByLabel("Code", { exact: true });
  await expect(code).toBeFocused();
  expect(await fitsWidth(page)).toBe(true);
  await expectNoViolations(page, "the step-up dialog");

  // Escape cancels: the key is not created, the form says why and keeps what was typed.
  await page.keyboard.press("Escape");
  await expect(dialog).toBeHidden();
  await expect(form.getByRole("alert").first()).toContainText(/second factor|confirm/i);
  await expect(form.getByLabel("Domain")).toHaveValue("https://step-up.example.com/");
  await expect(form.getByLabel("Label")).toHaveValue(label);

  // Again: a wrong code is refused in the dialog, naming the field; the right one creates the key.
  await form.getByRole("button", { name: "Create key" }).click();
  await expect(dialog).toBeVisible();
  await expect(code).toBeFocused();
  await code.fill(wrongCode(totp));
  await dialog.getByRole("button", { name: "Confirm" }).click();
  await expect(code).toHaveAttribute("aria-invalid", "true");
  await expect(dialog).toContainText("Code: this code was not accepted.");
  const stepUp = await codeAfter(totp, signIn.counter);
  await code.fill(stepUp.code);
  await dialog.getByRole("button", { name: "Confirm" }).click();
  await expect(dialog).toBeHidden();

  // The original request went through once, with what was typed.
  const created = page.getByRole("dialog", { name: "Key created" });
  await expect(created.getByTestId("created-key-domain")).toHaveText("step-up.example.com");
  await expect(created.getByText(label)).toBeVisible();
  await context.close();
});

test("an admin ends another member's sessions from the staff page; the member's next request goes to sign-in", async ({
  browser,
  adminPage,
  staff,
}) => {
  const member = await newMember(adminPage.request, browser, staff.admin, "analyst", "sessions");

  // The member, signed in in a browser of their own.
  const memberContext = await browser.newContext();
  await memberContext.addCookies([{ name: "NEXT_LOCALE", value: "en", url: baseURL }]);
  await signInContext(memberContext, member);
  const memberPage = await memberContext.newPage();
  await memberPage.goto("/verifications");
  await expect(memberPage.getByRole("heading", { level: 1 })).toBeVisible();

  // The admin sees that session and ends them all.
  const page = adminPage;
  await page.context().addCookies([{ name: "NEXT_LOCALE", value: "en", url: baseURL }]);
  await page.goto("/admin/staff");
  const row = page.getByRole("row", { name: new RegExp(member.name) });
  await row.getByRole("button", { name: `Sessions: ${member.name}` }).click();
  const dialog = page.getByRole("dialog", { name: `Sessions of ${member.name}` });
  await expect(dialog).toBeVisible();
  const sessions = dialog.getByTestId("staff-session");
  await expect(sessions).toHaveCount(1);
  await expect(sessions.first()).toContainText(/Chrom/);
  await expectNoViolations(page, "the member's sessions");
  await dialog.getByRole("button", { name: "End all sessions" }).click();
  await expect(dialog.getByRole("status")).toContainText("1 session ended.");
  await expect(dialog.getByText("No live sessions.")).toBeVisible();

  // The member's next request: to the sign-in page.
  await memberPage.goto("/verifications");
  await expect(memberPage).toHaveURL(/\/sign-in/);
  await memberContext.close();
});

test("an admin resets a member's second factors after a confirmation and a step-up with the password", async ({
  browser,
  adminPage,
  staff,
}) => {
  const member = await newMember(adminPage.request, browser, staff.admin, "analyst", "reset");
  // The member enrols an authenticator app (through the API).
  const context = await browser.newContext();
  await signInContext(context, member);
  const enrolled = await context.request.post("/api/account/factors/totp", { headers: WRITE, data: { label: "Lost phone" } });
  const { id, secret } = (await enrolled.json()) as { id: string; secret: string };
  const verified = await context.request.post(`/api/account/factors/totp/${encodeURIComponent(id)}/verify`, {
    headers: WRITE,
    data: { code: totpOf(secret).generate() },
  });
  expect(verified.status(), "confirming the authenticator app").toBe(200);
  await context.close();

  const page = adminPage;
  await page.context().addCookies([{ name: "NEXT_LOCALE", value: "en", url: baseURL }]);
  await page.goto("/admin/staff");
  const row = page.getByRole("row", { name: new RegExp(member.name) });
  await expect(row.getByTestId("second-factors")).toHaveText("1 factor");
  await row.getByRole("button", { name: `Reset second factors: ${member.name}` }).click();
  const confirm = page.getByRole("dialog", { name: `Reset the second factors of ${member.name}?` });
  await expect(confirm).toContainText("enrol a second factor again");
  // The admin's step-up for the invite above (5 s here) must have passed, so the reset asks for one.
  await page.waitForTimeout(6_000);
  await confirm.getByRole("button", { name: "Reset second factors" }).click();

  // The admin has no factor: the step-up asks for the password, focused; a wrong one is refused, naming the field.
  const dialog = stepUpDialog(page);
  const password = dialog.getByLabel("Password", { exact: true });
  await expect(password).toBeFocused();
  await password.fill("not-the-password");
  await dialog.getByRole("button", { name: "Confirm" }).click();
  await expect(password).toHaveAttribute("aria-invalid", "true");
  await expect(dialog).toContainText("Password: this password was not accepted.");
  await password.fill(staff.admin.password);
  await dialog.getByRole("button", { name: "Confirm" }).click();
  await expect(dialog).toBeHidden();
  await expect(confirm).toBeHidden();
  await expect(page.getByRole("status").filter({ hasText: `Second factors of ${member.name} reset` })).toBeVisible();
  await expect(row.getByTestId("second-factors")).toHaveText("none");
});
