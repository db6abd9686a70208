import type { Browser, BrowserContext, CDPSession, Page } from "@playwright/test";
import { Secret, TOTP } from "otpauth";

import { baseURL } from "@/playwright.config";

import { settledAxe } from "./axe";
import { answerStepUp, expect, signInContext, test, withStepUp, WRITE, type Account } from "./fixtures";
import { newMember } from "./step-up-support";

/*
 * Second factors through the pages (issue 21): an authenticator app enrolled on /account and then asked for
 * at sign-in (a code computed here from the setup key the page shows, a wrong one refused, a recovery code
 * accepted once); a passkey enrolled with Chromium's virtual authenticator and then signing in on its own;
 * and a session ended from another browser stopping on its next request.
 *
 * Each test uses a member of its own, invited by the worker's admin (never the demo accounts), so factors
 * and sessions never leak between tests. The embedded default runs with MFA_REQUIRED=off: nobody is forced
 * to enrol, and anyone may.
 */

async function inEnglish(context: BrowserContext): Promise<void> {
  await context.addCookies([{ name: "NEXT_LOCALE", value: "en", url: baseURL }]);
}

/** A page of a new browser context, in English; signed in as `who` when given. */
async function freshPage(browser: Browser, who?: Account, userAgent?: string): Promise<Page> {
  const context = await browser.newContext(userAgent ? { userAgent } : {});
  await inEnglish(context);
  if (who) await signInContext(context, who);
  return context.newPage();
}

async function signInThroughPage(page: Page, who: Account): Promise<void> {
  await page.goto("/sign-in");
  await page.getByLabel("Email").fill(who.email);
  await page.getByLabel("Password").fill(who.password);
  await page.getByRole("button", { name: "Sign in", exact: true }).click();
}

/** RFC 6238 as an authenticator app computes it (SHA-1, 6 digits, 30 s). */
function totpOf(setupKey: string): TOTP {
  return new TOTP({ secret: Secret.fromBase32(setupKey.replace(/\s+/g, "")), algorithm: "SHA1", digits: 6, period: 30 });
}

/**
 * The app's current code, in a time step later than `after` (a code is accepted once, so a step already used
 * would be refused however right the code): waits for the next step when needed.
 */
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

/** Phone width: the account page must read without a sideways scroll, whatever step it shows. */
const PHONE = { width: 390, height: 844 };

/** No axe violations and nothing wider than the viewport, in the page's current state. */
async function expectAccessible(page: Page, where: string): Promise<void> {
  const { violations } = await (await settledAxe(page)).analyze();
  expect(
    violations.map((violation) => `${violation.id}: ${violation.nodes.map((node) => node.target.join(" ")).join("; ")}`),
    `axe on ${where}`,
  ).toEqual([]);
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
  expect(overflow, `sideways scroll on ${where}`).toBeLessThanOrEqual(0);
}

const codeField = (page: Page) => page.getByLabel("Code", { exact: true });

/** Whether React has hydrated the element (it keeps its fiber on the DOM node). */
const hydrated = (element: Element) => Object.keys(element).some((key) => key.startsWith("__reactFiber"));

/** Types a code into the second step and submits it, once the page is interactive (see the no-JavaScript test for the plain form). */
async function submitCode(page: Page, code: string): Promise<void> {
  await expect.poll(() => codeField(page).evaluate(hydrated)).toBe(true);
  await codeField(page).fill(code);
  await codeField(page).press("Enter");
}

async function expectCodeRefused(page: Page): Promise<void> {
  await expect(codeField(page)).toHaveAttribute("aria-invalid", "true");
  await expect(page).toHaveURL(/\/sign-in\/verify/);
}

test("an authenticator app: enrolled on /account, asked for at sign-in, wrong code refused, a recovery code works once", async ({
  browser,
  adminPage,
  staff,
}) => {
  test.setTimeout(150_000);
  const member = await newMember(adminPage.request, browser, staff.admin, "analyst", "totp");

  // Enrolment on the account page, reached from the user menu, at phone width.
  const page = await freshPage(browser, member);
  // Adding a factor asks for a fresh step-up: the member (no factor yet) answers the dialog with the password.
  await answerStepUp(page, member.password);
  await page.setViewportSize(PHONE);
  await page.goto("/verifications");
  // On a phone the header is one line: the account link is under its Menu.
  await page.getByRole("button", { name: "Menu" }).click();
  await page.getByRole("link", { name: "Account and security" }).click();
  await expect(page.getByRole("heading", { level: 1, name: "Account and security" })).toBeVisible();
  await expect(page.getByText("You have no second factor yet.")).toBeVisible();
  await page.getByLabel("Name for this app").fill("Test phone");
  await page.getByRole("button", { name: "Add an authenticator app" }).click();
  // Focus moves to the second step.
  await expect(page.getByRole("heading", { name: "Set up “Test phone”" })).toBeFocused();
  await expect(page.getByRole("img", { name: "QR code to add your account to an authenticator app" })).toBeVisible();
  await expectAccessible(page, "the authenticator app's second step");
  const setupKey = await page.getByLabel("Setup key").inputValue();
  expect(setupKey).toMatch(/^[A-Z2-7]{4}( [A-Z2-7]{1,4})+$/);
  const totp = totpOf(setupKey);

  // A wrong code is refused, naming the field; then the right one adds the app.
  await codeField(page).fill(wrongCode(totp));
  await page.getByRole("button", { name: "Verify and add" }).click();
  await expect(codeField(page)).toHaveAttribute("aria-invalid", "true");
  const enrolled = await codeAfter(totp, -1);
  await codeField(page).fill(enrolled.code);
  await page.getByRole("button", { name: "Verify and add" }).click();

  // The first factor brings the recovery codes, once, in a panel that takes focus.
  await expect(page.getByRole("heading", { name: "Save your recovery codes" })).toBeFocused();
  const recoveryCodes = await page.getByRole("list", { name: "Recovery codes" }).getByRole("listitem").allTextContents();
  expect(recoveryCodes).toHaveLength(10);
  await expectAccessible(page, "the recovery codes panel");
  await page.getByRole("button", { name: "I have saved these codes" }).click();
  await expect(page.getByRole("heading", { name: "Save your recovery codes" })).toHaveCount(0);
  const factors = page.getByRole("list", { name: "Your second factors" });
  await expect(factors.getByRole("listitem")).toHaveCount(1);
  await expect(factors).toContainText("Test phone");
  await expect(factors).toContainText("Authenticator app");
  await expect(page.getByText("10 recovery codes left.")).toBeVisible();
  await page.context().close();

  // A fresh sign-in asks for the code after the password; a wrong one is refused, naming the field.
  const second = await freshPage(browser);
  await signInThroughPage(second, member);
  await expect(second).toHaveURL(/\/sign-in\/verify/);
  await expect(codeField(second)).toBeVisible();
  await submitCode(second, wrongCode(totp));
  await expectCodeRefused(second);
  // A recovery code stands in for the app.
  await submitCode(second, recoveryCodes[0]!);
  await expect(second).not.toHaveURL(/\/sign-in/);
  await expect(second.getByRole("button", { name: "Sign out" })).toBeVisible();
  await second.context().close();

  // The same recovery code a second time: refused. The app's code, in a step not used yet: accepted.
  const third = await freshPage(browser);
  await signInThroughPage(third, member);
  await expect(third).toHaveURL(/\/sign-in\/verify/);
  await submitCode(third, recoveryCodes[0]!);
  await expectCodeRefused(third);
  const signIn = await codeAfter(totp, enrolled.counter);
  await submitCode(third, signIn.code);
  await expect(third).not.toHaveURL(/\/sign-in/);
  await third.goto("/account");
  await expect(third.getByText("9 recovery codes left.")).toBeVisible();
  await third.context().close();
});

test("the code step works without JavaScript: a plain form post of the code completes the sign-in", async ({
  browser,
  adminPage,
  staff,
}) => {
  test.setTimeout(120_000);
  const member = await newMember(adminPage.request, browser, staff.admin, "analyst", "nojs");
  // Enrolled through the API (the page is tested above): an app, confirmed with its first code.
  const setup = await freshPage(browser, member);
  const started = await withStepUp(setup.request, member.password, () =>
    setup.request.post("/api/account/factors/totp", { headers: WRITE, data: { label: "No JS" } }),
  );
  expect(started.status()).toBe(201);
  const { id, secret } = (await started.json()) as { id: string; secret: string };
  const totp = totpOf(secret);
  const enrolled = await codeAfter(totp, -1);
  const confirmed = await withStepUp(setup.request, member.password, () =>
    setup.request.post(`/api/account/factors/totp/${id}/verify`, { headers: WRITE, data: { code: enrolled.code } }),
  );
  expect(confirmed.status()).toBe(200);
  await setup.context().close();

  const context = await browser.newContext({ javaScriptEnabled: false });
  await inEnglish(context);
  const page = await context.newPage();
  await signInThroughPage(page, member);
  await expect(page).toHaveURL(/\/sign-in\/verify/);
  const signIn = await codeAfter(totp, enrolled.counter);
  await codeField(page).fill(signIn.code);
  await codeField(page).press("Enter");
  await expect(page).not.toHaveURL(/\/sign-in/);
  await expect(page.getByRole("button", { name: "Sign out" })).toBeVisible();
  await context.close();
});

async function virtualAuthenticator(page: Page): Promise<{ cdp: CDPSession; authenticatorId: string }> {
  const cdp = await page.context().newCDPSession(page);
  await cdp.send("WebAuthn.enable");
  const { authenticatorId } = await cdp.send("WebAuthn.addVirtualAuthenticator", {
    options: { protocol: "ctap2", transport: "internal", hasResidentKey: true, hasUserVerification: true, isUserVerified: true },
  });
  return { cdp, authenticatorId };
}

test("a passkey: enrolled with a virtual authenticator, then signing in on its own", async ({ browser, adminPage, staff }) => {
  const member = await newMember(adminPage.request, browser, staff.admin, "analyst", "passkey");
  const page = await freshPage(browser, member);
  await answerStepUp(page, member.password);
  const enrolling = await virtualAuthenticator(page);
  await page.goto("/account");
  await page.getByLabel("Name for this passkey").fill("Laptop");
  await page.getByRole("button", { name: "Add a passkey" }).click();
  await expect(page.getByRole("heading", { name: "Save your recovery codes" })).toBeFocused();
  await page.getByRole("button", { name: "I have saved these codes" }).click();
  const factors = page.getByRole("list", { name: "Your second factors" });
  await expect(factors).toContainText("Laptop");
  await expect(factors).toContainText("Passkey");

  // The credential the authenticator made is discoverable (resident): it names the member by itself.
  const { credentials } = await enrolling.cdp.send("WebAuthn.getCredentials", { authenticatorId: enrolling.authenticatorId });
  expect(credentials).toHaveLength(1);
  expect(credentials[0]!.isResidentCredential).toBe(true);
  await page.context().close();

  // Another browser holding the same authenticator: no email, no password.
  const other = await freshPage(browser);
  const signingIn = await virtualAuthenticator(other);
  await signingIn.cdp.send("WebAuthn.addCredential", { authenticatorId: signingIn.authenticatorId, credential: credentials[0]! });
  await other.goto("/sign-in");
  await other.getByRole("button", { name: "Sign in with a passkey" }).click();
  await expect(other).not.toHaveURL(/\/sign-in/);
  await expect(other.getByRole("button", { name: "Sign out" })).toBeVisible();
  await other.goto("/account");
  const sessions = other.getByRole("list", { name: "Your sessions" });
  // The latest sign-in on this device was the passkey's (the first browser's session shares the device).
  await expect(sessions.getByRole("listitem").filter({ hasText: "This device" })).toContainText("Passkey");
  await other.context().close();
});

/** Another browser on the same machine: sessions are listed per device (browser, system, address). */
const FIREFOX = "Mozilla/5.0 (X11; Linux x86_64; rv:128.0) Gecko/20100101 Firefox/128.0";

test("sessions: two browsers listed, and the one ended from the other stops on its next request", async ({ browser, adminPage, staff }) => {
  const member = await newMember(adminPage.request, browser, staff.admin, "analyst", "sessions");
  const first = await freshPage(browser, member);
  const second = await freshPage(browser, member, FIREFOX);
  await second.goto("/verifications");
  await expect(second.getByRole("button", { name: "Sign out" })).toBeVisible();

  await first.goto("/account");
  const sessions = first.getByRole("list", { name: "Your sessions" });
  await expect(sessions.getByRole("listitem")).toHaveCount(2);
  await expect(sessions.getByRole("listitem").filter({ hasText: "This device" })).toHaveCount(1);
  await sessions.getByRole("button", { name: /^End the sessions of Firefox/ }).click();
  await expect(first.getByText(/^Firefox( [0-9.]+)? on .+ was signed out\.$/)).toBeVisible();
  await expect(sessions.getByRole("listitem")).toHaveCount(1);
  await expect(first.getByText("You are not signed in anywhere else.")).toBeVisible();

  // The ended session's next request: to the sign-in page (the API answers 401).
  await second.goto("/verifications");
  await expect(second).toHaveURL(/\/sign-in\?callbackUrl=%2Fverifications$/);
  expect((await second.request.get("/api/account/sessions")).status()).toBe(401);
  await first.context().close();
  await second.context().close();
});
