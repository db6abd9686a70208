import http from "node:http";
import type { AddressInfo } from "node:net";

import type { BrowserContext, Page } from "@playwright/test";

import { baseURL } from "@/playwright.config";

import { answerStepUp, expect, signInContext, test, withStepUp } from "./fixtures";

/*
 * Headers and the browser's side of the hardening: a fresh CSP nonce per response, every page working
 * under that CSP without a single violation, sign-in without JavaScript keeping the password out of
 * every URL, a cross-site form post refused, and the staff page's confirmations and unlock.
 */

const nonceOf = (csp: string | undefined) => /'nonce-([^']+)'/.exec(csp ?? "")?.[1];

test("every page response has its own CSP nonce, which its scripts carry; API answers let nothing run", async ({ request }) => {
  const nonces = new Set<string>();
  for (let index = 0; index < 3; index += 1) {
    const response = await request.get("/sign-in");
    expect(response.status()).toBe(200);
    const csp = response.headers()["content-security-policy"];
    expect(csp).toContain("'strict-dynamic'");
    expect(csp).toMatch(/script-src [^;]*'nonce-/);
    expect(/script-src [^;]*unsafe-inline/.test(csp ?? "")).toBe(false);
    expect(csp).toContain("frame-ancestors 'none'");
    const nonce = nonceOf(csp);
    expect(nonce).toBeTruthy();
    const html = await response.text();
    const scripts = [...html.matchAll(/<script\b[^>]*>/g)].map(([tag]) => tag);
    expect(scripts.length).toBeGreaterThan(0);
    for (const tag of scripts) expect(tag).toContain(`nonce="${nonce}"`);
    nonces.add(nonce!);
  }
  expect(nonces.size).toBe(3);

  const api = await request.get("/api/health");
  expect(api.headers()["content-security-policy"]).toContain("default-src 'none'");
  for (const response of [api, await request.get("/sign-in")]) {
    const headers = response.headers();
    expect(headers["x-content-type-options"]).toBe("nosniff");
    expect(headers["referrer-policy"]).toBe("same-origin");
    expect(headers["cross-origin-opener-policy"]).toBe("same-origin");
    expect(headers["permissions-policy"]).toMatch(/camera=\(\).*microphone=\(\).*geolocation=\(\)|geolocation=\(\).*microphone=\(\)/);
    // Passkeys (WebAuthn) work on this origin only; every other powerful feature stays off.
    expect(headers["permissions-policy"]).toContain("publickey-credentials-get=(self)");
    expect(headers["permissions-policy"]).toContain("publickey-credentials-create=(self)");
    expect(headers["x-robots-tag"]).toBe("noindex, nofollow");
    // A production build: HSTS is on (browsers only honour it over HTTPS).
    expect(headers["strict-transport-security"]).toMatch(/^max-age=\d{7,}/);
  }
});

test("a signed-in page whose path ends in .js, .css or .txt still renders under the CSP with a nonce", async ({ adminPage }) => {
  for (const path of ["/verifications/x.js", "/a.css", "/x.txt"]) {
    const response = await adminPage.request.get(path, { maxRedirects: 0 });
    // Signed in: the page itself renders (a not-found inside the dashboard's layout), no redirect to sign-in.
    expect(response.status(), path).not.toBe(307);
    const csp = response.headers()["content-security-policy"];
    expect(csp, path).toMatch(/script-src [^;]*'nonce-/);
    const nonce = nonceOf(csp);
    const html = await response.text();
    // Its scripts carry that nonce.
    for (const [tag] of html.matchAll(/<script\b[^>]*>/g)) expect(tag, path).toContain(`nonce="${nonce}"`);
  }
});

test("the icon, the manifest and robots.txt are served; robots keeps crawlers out", async ({ request }) => {
  const icon = await request.get("/favicon.ico");
  expect(icon.status()).toBe(200);
  expect((await icon.body()).subarray(0, 4)).toEqual(Buffer.from([0, 0, 1, 0]));
  const manifest = await request.get("/manifest.webmanifest");
  expect(manifest.status()).toBe(200);
  expect(((await manifest.json()) as { icons: unknown[] }).icons.length).toBeGreaterThan(0);
  const robots = await request.get("/robots.txt");
  expect(await robots.text()).toMatch(/User-agent: \*\s+Disallow: \/\s*$/);
  expect(robots.headers()["x-robots-tag"]).toContain("noindex");
});

/** Collects console errors and CSP violations (listened for before any page script runs). */
async function watchForViolations(context: BrowserContext): Promise<{ problems: string[]; page: Page }> {
  await context.addInitScript(() => {
    document.addEventListener("securitypolicyviolation", (event) => {
      console.error(
        `CSP violation: ${event.violatedDirective} blocked ${event.blockedURI || "inline"} (${event.sourceFile}:${event.lineNumber})`,
      );
    });
  });
  const page = await context.newPage();
  const problems: string[] = [];
  page.on("console", (message) => {
    if (message.type() === "error") problems.push(`${page.url()}: ${message.text()}`);
  });
  page.on("pageerror", (error) => problems.push(`${page.url()}: ${error.message}`));
  return { problems, page };
}

test("every page works under the CSP with no violation or console error", async ({ browser, staff }) => {
  test.setTimeout(120_000);
  const signedOut = await browser.newContext();
  const outside = await watchForViolations(signedOut);
  await outside.page.goto("/sign-in");
  await expect(outside.page.getByRole("button", { name: /^(Sign in|Entrar)$/ })).toBeVisible();
  await signedOut.close();

  const context = await browser.newContext({ locale: "en-GB" });
  await signInContext(context, staff.admin);
  const { problems, page } = await watchForViolations(context);
  await page.goto("/verifications");
  await expect(page.getByRole("heading", { level: 1 })).toBeVisible();
  const firstDetail = await page.getByRole("main").locator('a[href^="/verifications/"]').first().getAttribute("href");
  const pages = [
    "/",
    "/verifications",
    firstDetail ?? "/verifications",
    "/lookups/cpf",
    "/kyc",
    "/admin",
    "/admin/staff",
    "/admin/roles",
    "/admin/integrations",
    "/admin/audit",
    "/admin/privacy",
    "/compliance/coaf",
    "/account",
  ];
  for (const path of pages) {
    await page.goto(path);
    await expect(page.getByRole("main")).toBeVisible();
    // Hydrated: React has attached (the language switcher works only with JavaScript running).
    await expect(page.getByRole("heading", { level: 1 }).first()).toBeVisible();
    await page.waitForLoadState("networkidle");
  }
  // A dialog: its scroll lock injects a style element, which must carry the nonce.
  await page.goto("/admin/staff");
  await page.getByRole("button", { name: "Invite staff member" }).click();
  await expect(page.getByRole("dialog")).toBeVisible();
  await page.keyboard.press("Escape");
  expect(problems).toEqual([]);

  // The analyst's "not allowed" page too.
  const analyst = await browser.newContext({ locale: "en-GB" });
  await signInContext(analyst, staff.analyst);
  const watched = await watchForViolations(analyst);
  await watched.page.goto("/admin/staff");
  await expect(watched.page.getByRole("heading", { level: 1, name: "Not allowed" })).toBeVisible();
  await watched.page.waitForLoadState("networkidle");
  expect(watched.problems).toEqual([]);
  await analyst.close();
  await context.close();
});

test("without JavaScript, signing in works and the password never appears in a URL", async ({ browser, staff }) => {
  const context = await browser.newContext({ javaScriptEnabled: false, locale: "en-GB" });
  const page = await context.newPage();
  const urls: string[] = [];
  page.on("request", (request) => urls.push(request.url()));
  const password = staff.analyst.password;

  await page.goto("/verifications");
  await expect(page).toHaveURL(/\/sign-in\?callbackUrl=%2Fverifications$/);
  await page.getByLabel("Email").fill(staff.analyst.email);
  await page.getByLabel("Password").fill("a wrong password typed here");
  await page.getByRole("button", { name: "Sign in", exact: true }).click();
  await expect(page.getByRole("main").getByRole("alert")).toHaveText("The email or password is not correct.");

  await page.getByLabel("Email").fill(staff.analyst.email);
  await page.getByLabel("Password").fill(password);
  await page.getByRole("button", { name: "Sign in", exact: true }).click();
  await expect(page).toHaveURL(/\/verifications$/);
  expect((await context.cookies()).some((cookie) => cookie.name.includes("session-token"))).toBe(true);

  for (const secret of [password, "a wrong password typed here", "a+wrong+password", "a%20wrong"]) {
    expect(urls.filter((url) => url.includes(secret))).toEqual([]);
  }
  expect(urls.some((url) => /[?&]password=/.test(url))).toBe(false);
  await context.close();
});

test("a form on another port of this host cannot create staff with the admin's cookie", async ({ adminPage }) => {
  const email = `csrf-${Date.now()}@example.com`;
  // A text/plain form whose body reads as JSON: the classic way round "JSON only" without CORS.
  const field = `{"email":"${email}","role":"admin","name":"Cross site`;
  const attacker = http.createServer((_request, response) => {
    response.setHeader("Content-Type", "text/html; charset=utf-8");
    response.end(`<!doctype html><title>win a prize</title>
      <form id="f" method="post" action="${baseURL}/api/staff" enctype="text/plain">
        <input type="hidden" name='${field}' value='"}'>
      </form>
      <script>document.getElementById("f").submit()</script>`);
  });
  await new Promise<void>((resolve) => attacker.listen(0, "127.0.0.1", resolve));
  try {
    // Same site as the dashboard (localhost, another port), so SameSite=Lax still sends the cookie.
    const attackerURL = `http://localhost:${(attacker.address() as AddressInfo).port}/`;
    const page = await adminPage.context().newPage();
    const answer = page.waitForResponse((response) => response.url() === `${baseURL}/api/staff` && response.request().method() === "POST");
    await page.goto(attackerURL);
    const response = await answer;
    expect(response.status()).toBe(403);
    const list = (await (await adminPage.request.get("/api/staff")).json()) as { staff: Array<{ email: string }> };
    expect(list.staff.some((user) => user.email === email)).toBe(false);
  } finally {
    await new Promise((resolve) => attacker.close(resolve));
  }
});

test("disabling or demoting asks first; an unlock lifts a lockout; a failed invite keeps what was typed", async ({
  adminPage: page,
  staff,
}) => {
  test.setTimeout(90_000);
  const email = `confirm-${Date.now()}@example.com`;
  // Invites and role changes need a step-up: the admin (no factor) answers with the password, in the browser's
  // dialog as through the API.
  await answerStepUp(page, staff.admin.password);
  // Playwright's request context sends no Origin; the route kit refuses a write without one.
  const created = await withStepUp(page.request, staff.admin.password, () =>
    page.request.post("/api/staff", {
      data: { email, name: "Confirm Me", role: "admin" },
      headers: { origin: baseURL },
    }),
  );
  expect(created.status()).toBe(201);
  const { oneTimePassword } = (await created.json()) as { oneTimePassword: string };
  await page.context().addCookies([{ name: "NEXT_LOCALE", value: "en", url: baseURL }]);
  await page.goto("/admin/staff");
  const row = page.getByRole("row", { name: /Confirm Me/ });

  // Demote (the role picker, a role with fewer permissions): the confirmation opens with focus on Cancel; Escape
  // leaves everything as it was.
  const demote = async () => {
    await row.getByRole("button", { name: "Change role: Confirm Me" }).click();
    const picker = page.getByRole("dialog", { name: "Role of Confirm Me", exact: true });
    await picker.getByRole("radio", { name: "Analyst", exact: true }).check();
    await picker.getByRole("button", { name: "Change role" }).click();
    await expect(picker).toBeHidden();
  };
  await demote();
  const dialog = page.getByRole("dialog", { name: "Change the role of Confirm Me to Analyst?" });
  await expect(dialog).toBeVisible();
  await expect(dialog.getByRole("button", { name: "Cancel" })).toBeFocused();
  await page.keyboard.press("Escape");
  await expect(dialog).toBeHidden();
  await expect(row.getByText("Admin", { exact: true })).toBeVisible();
  await demote();
  await dialog.getByRole("button", { name: "Change role" }).click();
  await expect(dialog).toBeHidden();
  await expect(row.getByText("Analyst", { exact: true })).toBeVisible();

  // Disable, confirmed.
  await row.getByRole("button", { name: "Disable: Confirm Me" }).click();
  const disable = page.getByRole("dialog", { name: "Disable Confirm Me?" });
  await expect(disable).toContainText(email);
  await disable.getByRole("button", { name: "Disable account" }).click();
  await expect(row.getByText("Disabled", { exact: true })).toBeVisible();
  await row.getByRole("button", { name: "Re-enable: Confirm Me" }).click();
  await expect(row.getByText(/Active|Invited/)).toBeVisible();

  // Five failures from this address lock it out of the account; the admin lifts the lock.
  const guesser = await page.context().browser()!.newContext();
  const csrf = (await (await guesser.request.get("/api/auth/csrf")).json()) as { csrfToken: string };
  for (let attempt = 0; attempt < 5; attempt += 1) {
    await guesser.request.post("/api/auth/callback/credentials", {
      form: { csrfToken: csrf.csrfToken, email, password: `guess ${attempt}`, json: "true" },
      maxRedirects: 0,
    });
  }
  await page.reload();
  await expect(row.getByText(/Locked from 1 address until/)).toBeVisible();
  await row.getByRole("button", { name: "Unlock sign-in: Confirm Me" }).click();
  await expect(page.getByRole("status").filter({ hasText: "Sign-in unlocked for Confirm Me." })).toBeVisible();
  await expect(row.getByText("normal")).toBeVisible();
  const afterUnlock = await guesser.request.post("/api/auth/callback/credentials", {
    form: { csrfToken: csrf.csrfToken, email, password: oneTimePassword, json: "true" },
    maxRedirects: 0,
  });
  expect(afterUnlock.status()).toBeLessThan(400);
  expect((await guesser.cookies()).some((cookie) => cookie.name.includes("session-token"))).toBe(true);
  await guesser.close();

  // An invitation refused by the server (the email is taken) keeps the form as typed.
  await page.getByRole("button", { name: "Invite staff member" }).click();
  const invite = page.getByRole("dialog", { name: "Invite a staff member" });
  await invite.getByLabel("Email").fill(email);
  await invite.getByLabel("Name").fill("Someone Else");
  await invite.getByLabel("Role").selectOption("admin");
  await invite.getByRole("button", { name: "Create account" }).click();
  await expect(invite.getByRole("alert").first()).toContainText("already exists");
  await expect(invite.getByLabel("Email")).toHaveValue(email);
  await expect(invite.getByLabel("Name")).toHaveValue("Someone Else");
  await expect(invite.getByLabel("Role")).toHaveValue("admin");
});
