import { test as base, expect, type Browser, type BrowserContext, type Page } from "@playwright/test";

/*
 * Single sign-on in a real browser against a real OpenID provider (test/oidc-provider/, started by
 * scripts/test.mjs): run once with the provider conformant (email from userinfo) and once with the email
 * in the ID token. Each test registers its own provider login (login = subject) and staff account.
 */

const issuer = process.env.OIDC_TEST_ISSUER!;
// The suite's own config and fixtures: importing the main suite's would load its config module here too.
const baseURL = `http://localhost:${process.env.E2E_PORT ?? 3100}`;
const admin = { headers: { origin: baseURL } };
// GETs with side effects (the audit log) need what the browser sends from the dashboard's own pages.
const SAME_ORIGIN = { "sec-fetch-site": "same-origin" } as const;

/** A page signed in as the demo admin, through next-auth's credentials endpoint. */
const test = base.extend<{ adminPage: Page }>({
  adminPage: async ({ browser }, use) => {
    const context = await browser.newContext();
    const { csrfToken } = (await (await context.request.get("/api/auth/csrf")).json()) as { csrfToken: string };
    const response = await context.request.post("/api/auth/callback/credentials", {
      form: { csrfToken, email: "admin@sandbox.local", password: "sandbox-admin", json: "true" },
      maxRedirects: 0,
    });
    expect(response.status()).toBeLessThan(400);
    await use(await context.newPage());
    await context.close();
  },
});

function unique(label: string): string {
  return `${label}-${Date.now()}-${Math.floor(Math.random() * 1e6)}`;
}

/** What the provider releases for this login (its subject). */
async function providerAccount(login: string, claims: Record<string, unknown>): Promise<void> {
  const response = await fetch(`${issuer}/test/accounts/${encodeURIComponent(login)}`, { method: "PUT", body: JSON.stringify(claims) });
  expect(response.status).toBe(204);
}

async function staffAccount(adminPage: Page, email: string): Promise<string> {
  const invite = () => adminPage.request.post("/api/staff", { ...admin, data: { email, name: "SSO Person", role: "analyst" } });
  let response = await invite();
  // An invite needs a step-up; the demo admin has no factor, so its password stands in.
  if (response.status() === 401) {
    const stepUp = await adminPage.request.post("/api/account/step-up", { ...admin, data: { password: "sandbox-admin" } });
    expect(stepUp.status()).toBe(200);
    response = await invite();
  }
  expect(response.status()).toBe(201);
  return ((await response.json()) as { user: { id: string } }).user.id;
}

async function disable(adminPage: Page, id: string): Promise<void> {
  const response = await adminPage.request.patch(`/api/staff/${id}`, { ...admin, data: { disabled: true } });
  expect(response.status()).toBe(200);
}

async function englishContext(browser: Browser): Promise<BrowserContext> {
  const context = await browser.newContext();
  await context.addCookies([{ name: "NEXT_LOCALE", value: "en", url: baseURL }]);
  return context;
}

/** From the sign-in page through the provider's own login and consent pages, back to the dashboard. */
async function signInWithSso(page: Page, login: string): Promise<void> {
  await page.goto("/sign-in");
  await page.getByRole("button", { name: "Sign in with single sign-on" }).click();
  await page.waitForURL(`${issuer}/**`);
  await page.locator("input[name=login]").fill(login);
  await page.locator("input[name=password]").fill("any password");
  await page.getByRole("button", { name: "Sign-in" }).click();
  // The provider asks once per session whether the dashboard may have the claims.
  await page.getByRole("button", { name: "Continue" }).click();
  await page.waitForURL(`${baseURL}/**`);
}

/** The reason the trail gives for this email's latest refused sign-in. */
async function refusalReason(adminPage: Page, email: string): Promise<unknown> {
  const query = new URLSearchParams({ action: "auth.sign_in", outcome: "failure", actor: email });
  const response = await adminPage.request.get(`/api/audit?${query}`, { headers: SAME_ORIGIN });
  expect(response.status()).toBe(200);
  const { events } = (await response.json()) as { events: Array<{ details: Record<string, unknown> }> };
  return events[0]?.details;
}

const formAlert = (page: Page) => page.getByRole("main").getByRole("alert");
const hasSession = async (context: BrowserContext) => (await context.cookies()).some((cookie) => cookie.name.includes("session-token"));

test("an analyst signs in through the provider, and signing out ends the provider's session too", async ({ browser, adminPage }) => {
  const login = unique("analyst");
  const email = `${login}@example.com`;
  await staffAccount(adminPage, email);
  await providerAccount(login, { email, email_verified: true, name: "Ana Lista" });
  const context = await englishContext(browser);
  const page = await context.newPage();

  const authorization = page.waitForRequest((request) => request.url().startsWith(`${issuer}/auth?`));
  await signInWithSso(page, login);
  const params = new URL((await authorization).url()).searchParams;
  expect(params.get("response_type")).toBe("code");
  expect(params.get("scope")?.split(" ").sort()).toEqual(["email", "openid", "profile"]);
  expect(params.get("code_challenge_method")).toBe("S256");
  expect(params.get("code_challenge")).toMatch(/^[A-Za-z0-9_-]{43}$/);
  expect(params.get("state")).toBeTruthy();
  expect(params.get("nonce")).toBeTruthy();

  await expect(page).toHaveURL(/\/verifications$/);
  await expect(page.getByRole("button", { name: "Sign out" })).toBeVisible();
  // The email came from userinfo exactly when the provider keeps it out of the ID token.
  const { calls } = (await (await fetch(`${issuer}/test/userinfo-calls/${login}`)).json()) as { calls: number };
  expect(calls).toBe(process.env.OIDC_TEST_CLAIMS === "id-token" ? 0 : 1);
  const [signIn] = (
    await (await adminPage.request.get(`/api/audit?action=auth.sign_in&outcome=success&actor=${email}`, { headers: SAME_ORIGIN })).json()
  ).events;
  expect(signIn.details).toEqual({ method: "oidc" });

  const copied = (await context.cookies()).find((cookie) => cookie.name.includes("session-token"));
  await page.getByRole("button", { name: "Sign out" }).click();
  // RP-initiated logout: the provider confirms, then sends the browser back to the sign-in page.
  await page.waitForURL(`${issuer}/**`);
  await page.getByRole("button", { name: "Yes, sign me out" }).click();
  await expect(page).toHaveURL(`${baseURL}/sign-in`);
  expect(await hasSession(context)).toBe(false);

  // The copied cookie opens nothing, and the provider asks for credentials again.
  const stale = await browser.newContext();
  await stale.addCookies([{ ...copied!, expires: -1 }]);
  expect((await stale.request.get("/api/verifications")).status()).toBe(401);
  await stale.close();
  await page.getByRole("button", { name: "Sign in with single sign-on" }).click();
  await expect(page.locator("input[name=login]")).toBeVisible();
  await context.close();
});

const refusals: Array<{
  name: string;
  reason: string;
  message: string;
  claims: (email: string) => Record<string, unknown>;
  staff: "none" | "active" | "disabled";
}> = [
  {
    name: "an unknown email",
    reason: "unknown_account",
    message: "No staff account uses the email your identity provider gave. Ask an administrator to invite you.",
    claims: (email) => ({ email, email_verified: true }),
    staff: "none",
  },
  {
    name: "a disabled account",
    reason: "disabled",
    message: "Your staff account is disabled. Ask an administrator.",
    claims: (email) => ({ email, email_verified: true }),
    staff: "disabled",
  },
  {
    name: "email_verified false",
    reason: "email_not_verified",
    message: "Your identity provider does not mark your email address as verified. Ask an administrator.",
    claims: (email) => ({ email, email_verified: false }),
    staff: "active",
  },
  {
    name: "email_verified missing",
    reason: "email_not_verified",
    message: "Your identity provider does not mark your email address as verified. Ask an administrator.",
    claims: (email) => ({ email }),
    staff: "active",
  },
  {
    name: 'email_verified "false"',
    reason: "email_not_verified",
    message: "Your identity provider does not mark your email address as verified. Ask an administrator.",
    claims: (email) => ({ email, email_verified: "false" }),
    staff: "active",
  },
];

for (const refusal of refusals) {
  test(`${refusal.name} is refused with its own reason, and nothing is created`, async ({ browser, adminPage }) => {
    const login = unique("refused");
    const email = `${login}@example.com`;
    if (refusal.staff !== "none") {
      const id = await staffAccount(adminPage, email);
      if (refusal.staff === "disabled") await disable(adminPage, id);
    }
    await providerAccount(login, refusal.claims(email));
    const context = await englishContext(browser);
    const page = await context.newPage();
    await signInWithSso(page, login);
    await expect(page).toHaveURL(/\/sign-in\?error=oidc%3A/);
    await expect(formAlert(page)).toHaveText(refusal.message);
    expect(await hasSession(context)).toBe(false);
    expect(await refusalReason(adminPage, email)).toMatchObject({ method: "oidc", reason: refusal.reason });
    if (refusal.staff === "none") {
      const { staff } = (await (await adminPage.request.get("/api/staff")).json()) as { staff: Array<{ email: string }> };
      expect(staff.map((user) => user.email)).not.toContain(email);
    }
    await context.close();
  });
}

test("an identity that releases no email is refused before any account is looked up", async ({ browser, adminPage }) => {
  const login = unique("no-email");
  await providerAccount(login, { name: "No Email" });
  const context = await englishContext(browser);
  const page = await context.newPage();
  await signInWithSso(page, login);
  await expect(formAlert(page)).toHaveText(/did not share your email address/);
  expect(await hasSession(context)).toBe(false);
  const query = new URLSearchParams({ action: "auth.sign_in", outcome: "failure" });
  const { events } = (await (await adminPage.request.get(`/api/audit?${query}`, { headers: SAME_ORIGIN })).json()) as {
    events: Array<{ actorEmail: string | null; details: Record<string, unknown> }>;
  };
  expect(events.some((event) => event.actorEmail === null && event.details.reason === "email_not_released")).toBe(true);
  await context.close();
});

test("an account tied to another subject is refused to a second identity with the same email", async ({ browser, adminPage }) => {
  const first = unique("first");
  const second = unique("second");
  const email = `${first}@example.com`;
  await staffAccount(adminPage, email);
  await providerAccount(first, { email, email_verified: true });
  await providerAccount(second, { email, email_verified: true });

  const firstContext = await englishContext(browser);
  const firstPage = await firstContext.newPage();
  await signInWithSso(firstPage, first);
  await expect(firstPage).toHaveURL(/\/verifications$/);
  await firstContext.close();

  const context = await englishContext(browser);
  const page = await context.newPage();
  await signInWithSso(page, second);
  await expect(formAlert(page)).toHaveText("Your staff account is linked to a different identity at your provider. Ask an administrator.");
  expect(await hasSession(context)).toBe(false);
  expect(await refusalReason(adminPage, email)).toMatchObject({ method: "oidc", reason: "account_bound_to_other_subject" });
  await context.close();
});

test("disabling an account stops its open single sign-on session on the next request", async ({ browser, adminPage }) => {
  const login = unique("disable-later");
  const email = `${login}@example.com`;
  const id = await staffAccount(adminPage, email);
  await providerAccount(login, { email, email_verified: true });
  const context = await englishContext(browser);
  const page = await context.newPage();
  await signInWithSso(page, login);
  await expect(page).toHaveURL(/\/verifications$/);

  await disable(adminPage, id);
  expect((await page.request.get("/api/verifications")).status()).toBe(401);
  await page.goto("/verifications");
  await expect(page).toHaveURL(/\/sign-in/);
  await context.close();
});

test("an ID token altered after signing is refused and opens no session", async ({ browser }) => {
  const login = unique("tampered");
  const email = `${login}@example.com`;
  await providerAccount(login, { email, email_verified: true });
  const response = await fetch(`${issuer}/test/tamper/${encodeURIComponent(login)}`, { method: "POST" });
  expect(response.status).toBe(204);
  const context = await englishContext(browser);
  const page = await context.newPage();
  await signInWithSso(page, login);
  await expect(page).toHaveURL(/\/sign-in\?.*error=OAuthCallback/);
  await expect(formAlert(page)).toHaveText("Sign-in did not work. Try again; if it keeps failing, tell an administrator.");
  expect(await hasSession(context)).toBe(false);
  await context.close();
});
