import { createHmac } from "node:crypto";

import type { Page } from "@playwright/test";
import { sealData, unsealData } from "iron-session";

import { baseURL } from "@/playwright.config";

import {
  answerStepUp,
  expect,
  generatedSecrets,
  sandbox,
  signInContext,
  stepUpDialog,
  test,
  withStepUp,
  WRITE,
  type SandboxLog,
} from "./fixtures";
import { codeAfter, expectNoViolations, fitsWidth, newMember, PHONE, totpOf, wrongCode } from "./step-up-support";

/*
 * Partners operations in a real browser, against a production build and the sandbox: integration keys
 * (the domain as stored, the key once, the reveal window, the analyst refused), manual CPF lookups (a
 * wrong check digit never reaches the sandbox, both records, deceased and PEP flagged, unknown values),
 * a KYC session's widget address, and the SMS phone check.
 */

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

async function inEnglish(page: Page): Promise<void> {
  await page.context().addCookies([{ name: "NEXT_LOCALE", value: "en", url: baseURL }]);
}

/**
 * Key creations the sandbox received since the test began. Only this file creates integration keys, and its
 * tests run one after another in one worker, so whatever the other worker does meanwhile is not counted.
 */
async function keyCreations(sandboxLog: SandboxLog) {
  return (await sandboxLog.requests()).filter((request) => request.method === "POST" && request.path === "/partners/integrations");
}

/**
 * Moves the reveal window of every key in the browser's sealed cookie into the past, as the dashboard's
 * clock would see it once the window has passed. The seal is opened and made again with the dashboard's
 * own sealing secret (the embedded default keeps it in the data folder); only the deadlines change.
 */
async function ageRevealCookie(page: Page): Promise<void> {
  const password = createHmac("sha256", generatedSecrets().mediaSeal!).update("integration-key-reveal-v1").digest("base64url");
  const cookies = await page.context().cookies();
  const cookie = cookies.find((item) => item.name.endsWith("kyc_integration_reveal"));
  expect(cookie, "the reveal cookie is set").toBeDefined();
  expect(cookie!.httpOnly).toBe(true);
  expect(cookie!.sameSite).toBe("Strict");
  const payload = await unsealData<{ v: 1; userId: string; entries: Array<{ createdAt: number; expiresAt: number }> }>(cookie!.value, {
    password,
  });
  expect(payload.entries.length).toBeGreaterThan(0);
  const past = Date.now() - 1_000;
  const aged = await sealData(
    { ...payload, entries: payload.entries.map((entry) => ({ ...entry, createdAt: past - 600_000, expiresAt: past })) },
    { password, ttl: 600 },
  );
  await page.context().addCookies([{ ...cookie!, value: aged }]);
}

test.describe("integration keys", () => {
  test("the admin creates a key for https://Example.com.br/path, sees example.com.br and the key once; after the reveal window it is gone; retired, its row is drawn again", async ({
    adminPage: page,
    sandboxLog,
    staff,
  }) => {
    await inEnglish(page);
    // Creating and revealing a key need a step-up: the admin (no factor) answers with the password.
    await answerStepUp(page, staff.admin.password);
    await page.goto("/admin/integrations");
    await expect(page.getByRole("heading", { level: 1, name: "Integration keys" })).toBeVisible();
    const label = `E2E store ${Date.now()}`;
    expect(await keyCreations(sandboxLog)).toEqual([]);

    await page.getByRole("button", { name: "Create a key" }).click();
    const dialog = page.getByRole("dialog", { name: "Create an integration key" });
    await dialog.getByLabel("Domain").fill("https://Example.com.br/path");
    await expect(dialog.getByText("The key will be bound to example.com.br.")).toBeVisible();
    await dialog.getByLabel("Label").fill(label);
    await dialog.getByRole("button", { name: "Create key" }).click();

    const created = page.getByRole("dialog", { name: "Key created" });
    await expect(created.getByTestId("created-key-domain")).toHaveText("example.com.br");
    await expect(created.getByText(label)).toBeVisible();
    const key = await created.getByRole("textbox", { name: "Key" }).inputValue();
    expect(key).toMatch(UUID);
    await expect(created.getByText(/gives access to every product query/)).toBeVisible();
    await expect(created.getByRole("button", { name: "Copy" })).toBeVisible();
    expect(await keyCreations(sandboxLog)).toHaveLength(1);

    await created.getByRole("button", { name: "I have stored the key" }).click();
    await expect(created).toBeHidden();
    const registry = page.getByRole("table");
    await expect(registry.getByRole("row", { name: new RegExp(label) })).toContainText("example.com.br");
    expect(await page.content()).not.toContain(key);

    // A reload: the key is not in the page, but can be revealed from the sealed cookie within the window.
    await page.reload();
    expect(await page.content()).not.toContain(key);
    const revealable = page.getByRole("region", { name: "Keys you can still reveal" });
    await revealable.getByRole("button", { name: new RegExp(`Reveal key: ${label}`) }).click();
    await expect(revealable.getByRole("textbox", { name: "Key" })).toHaveValue(key);

    // The window passes: the key can never be shown again.
    await ageRevealCookie(page);
    await page.reload();
    await expect(page.getByRole("heading", { level: 1, name: "Integration keys" })).toBeVisible();
    await expect(page.getByRole("region", { name: "Keys you can still reveal" })).toHaveCount(0);
    expect(await page.content()).not.toContain(key);
    const { revealable: listed } = (await (await page.request.get("/api/integrations")).json()) as { revealable: unknown[] };
    expect(listed).toEqual([]);
    const refused = await withStepUp(page.request, staff.admin.password, () =>
      page.request.post("/api/integrations/reveal", { headers: { origin: baseURL }, data: { upstreamId: 0 } }),
    );
    expect(refused.status()).toBe(404);
    expect(await refused.text()).not.toContain(key);
    // The registry still lists it: metadata only.
    const row = page.getByRole("table").getByRole("row", { name: new RegExp(label) });
    await expect(row).toBeVisible();

    // Retired with a reason: the server draws the row again with its new state, and the button's place says so.
    await row.getByRole("button", { name: `Retire ${label} (example.com.br)` }).click();
    const retire = page.getByRole("dialog", { name: `Retire the key ${label}?` });
    await retire.getByLabel("Reason").fill("Moved to a new domain");
    await retire.getByRole("button", { name: "Retire key" }).click();
    await expect(retire).toBeHidden();
    await expect(row.getByRole("status")).toContainText(`${label} is marked retired`);
    await expect(row).toContainText("Retired here");
    await expect(row).toContainText("Reason: Moved to a new domain");
  });

  test("the analyst is refused the page and the API", async ({ analystPage: page }) => {
    await inEnglish(page);
    await page.goto("/admin/integrations");
    await expect(page.getByRole("heading", { level: 1, name: "Not allowed" })).toBeVisible();
    await expect(page.getByRole("button", { name: "Create a key" })).toHaveCount(0);
    expect((await page.request.get("/api/integrations")).status()).toBe(403);
    expect(
      (
        await page.request.post("/api/integrations", { headers: { origin: baseURL }, data: { domain: "example.com", label: "x" } })
      ).status(),
    ).toBe(403);
  });

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
    // Adding a factor asks for a fresh step-up: the member (no factor yet) answers with the password.
    const enrolled = await withStepUp(context.request, member.password, () =>
      context.request.post("/api/account/factors/totp", { headers: WRITE, data: { label: "E2E phone" } }),
    );
    expect(enrolled.status(), "starting the authenticator app's enrolment").toBeLessThan(300);
    const { id, secret } = (await enrolled.json()) as { id: string; secret: string };
    const totp = totpOf(secret);
    const first = await codeAfter(totp, -1);
    const verified = await withStepUp(context.request, member.password, () =>
      context.request.post(`/api/account/factors/totp/${encodeURIComponent(id)}/verify`, {
        headers: WRITE,
        data: { code: first.code },
      }),
    );
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
});

test.describe("CPF lookups", () => {
  // The other worker may look a CPF up meanwhile, so the sandbox's log cannot tell this page's calls from its
  // own: what this page sends is watched instead. The route's own refusal, before any call to the sandbox, is
  // app/api/lookups/cpf/route.test.ts's.
  test("a CPF with a wrong check digit gets a field error and the page sends no lookup", async ({ analystPage: page }) => {
    await inEnglish(page);
    await page.goto("/lookups/cpf");
    await expect(page.getByRole("heading", { level: 1, name: "CPF lookups" })).toBeVisible();
    const lookups: string[] = [];
    page.on("request", (request) => {
      if (new URL(request.url()).pathname.startsWith("/api/lookups")) lookups.push(`${request.method()} ${request.url()}`);
    });

    const cpf = page.getByLabel("CPF", { exact: true });
    await cpf.fill("52998224724");
    await expect(cpf).toHaveValue("529.982.247-24");
    await page.getByLabel("Purpose").fill("E2E check digit test");
    await page.getByRole("button", { name: "Look up" }).click();
    await expect(page.getByText("This CPF's check digits are wrong: check the number typed.")).toBeVisible();
    await expect(cpf).toHaveAttribute("aria-invalid", "true");
    await expect(cpf).toBeFocused();

    await cpf.fill("111.111.111-11");
    await page.getByRole("button", { name: "Look up" }).click();
    await expect(page.getByText("A CPF cannot be one digit repeated.")).toBeVisible();

    expect(lookups).toEqual([]);
    // The same form does send a valid one: the watch above would have seen it.
    await cpf.fill("529.982.247-25");
    await page.getByRole("button", { name: "Look up" }).click();
    await expect(page.getByRole("heading", { name: "Results for CPF 529.982.247-25" })).toBeVisible();
    expect(lookups.length).toBeGreaterThan(0);
  });

  test("a valid CPF shows the federal revenue record and the enrichment record; unknown values read “not informed”", async ({
    analystPage: page,
  }) => {
    await inEnglish(page);
    await page.goto("/lookups/cpf");
    await page.getByLabel("CPF", { exact: true }).fill("529 982 247 25");
    await page.getByLabel("Purpose").fill("E2E onboarding check");
    await page.getByRole("radio", { name: "Both sources" }).check();
    await page.getByRole("button", { name: "Look up" }).click();

    await expect(page.getByRole("heading", { name: "Results for CPF 529.982.247-25" })).toBeVisible();
    const receita = page.getByRole("region", { name: "Federal revenue record" });
    const history = page.getByRole("region", { name: "CPF enrichment" });
    for (const label of [
      "Name",
      "Birth date",
      "Registration situation",
      "Death on record",
      "Registration date",
      "Issued at",
      "Phone",
      "Email",
    ]) {
      await expect(receita.getByText(label, { exact: true })).toBeVisible();
    }
    for (const label of ["Mother's name", "Gender", "Age", "Nationality", "Politically exposed person (PEP)", "Registration situation"]) {
      await expect(history.getByText(label, { exact: true })).toBeVisible();
    }
    await expect(receita.getByRole("alert")).toHaveCount(0);
    await expect(history.getByRole("status")).toHaveCount(0);
    // The CPF went in a POST body: never in the address bar.
    expect(page.url()).not.toContain("529");

    // A person whose enrichment holds empty strings.
    await page.getByLabel("CPF", { exact: true }).fill("123.456.789-09");
    await page.getByRole("radio", { name: "CPF enrichment" }).check();
    await page.getByRole("button", { name: "Look up" }).click();
    const sparse = page.getByRole("region", { name: "CPF enrichment" });
    await expect(sparse.getByText("not informed").first()).toBeVisible();
  });

  test("a deceased person and a PEP are flagged", async ({ adminPage: page }) => {
    await inEnglish(page);
    await page.goto("/lookups/cpf");
    await page.getByLabel("Purpose").fill("E2E risk flags");

    await page.getByLabel("CPF", { exact: true }).fill("111.444.777-35");
    await page.getByRole("button", { name: "Look up" }).click();
    const receita = page.getByRole("region", { name: "Federal revenue record" });
    await expect(receita.getByRole("alert")).toContainText("Death on record");
    await expect(page.getByRole("region", { name: "CPF enrichment" }).getByRole("alert")).toContainText("Death on record");

    await page.getByLabel("CPF", { exact: true }).fill("390.533.447-05");
    await page.getByRole("radio", { name: "CPF enrichment" }).check();
    await page.getByRole("button", { name: "Look up" }).click();
    const history = page.getByRole("region", { name: "CPF enrichment" });
    await expect(history.getByRole("status").filter({ hasText: "Politically exposed person (PEP)" })).toBeVisible();
    await expect(history.getByText("PEP", { exact: true })).toBeVisible();
  });
});

test.describe("KYC", () => {
  test("a KYC session yields a widget address whose path holds the session id", async ({ analystPage: page }) => {
    await inEnglish(page);
    await page.goto("/kyc");
    await page.getByLabel("CPF of the person").fill("52998224725");
    // A purpose, as for a lookup: asked for first, and kept on the trail.
    await page.getByRole("button", { name: "Start session" }).click();
    await expect(page.getByText("Say why you need this lookup.")).toBeVisible();
    await page.getByLabel("Purpose").fill("Onboarding of a new customer");
    await page.getByRole("button", { name: "Start session" }).click();

    const address = page.getByRole("textbox", { name: "Widget address" });
    await expect(address).toBeVisible();
    const url = new URL(await address.inputValue());
    const sessionId = (await page.getByTestId("kyc-session-id").textContent())?.trim() ?? "";
    expect(sessionId).toMatch(UUID);
    expect(url.pathname.split("/").pop()).toBe(sessionId);
    expect(url.searchParams.get("token")).toBeTruthy();
    // The widget speaks the dashboard's language.
    expect(url.searchParams.get("lang")).toBe("en");
    await expect(page.getByText("Iniciado", { exact: true })).toBeVisible();
    await expect(page.getByRole("img", { name: "QR code of the widget address" })).toBeVisible();
    await expect(page.getByRole("button", { name: "Copy" })).toBeVisible();
    // Only what the page shows: nothing of the person's enrichment record.
    await expect(page.getByText("Client data")).toHaveCount(0);
  });

  test("an SMS code sent and validated succeeds; a wrong code fails with a clear message", async ({ analystPage: page }) => {
    await inEnglish(page);
    await page.goto("/kyc");
    const phone = page.getByLabel("Mobile phone");
    await phone.fill("+5511912345678");
    await expect(phone).toHaveValue("+55 11 91234-5678");
    await page.getByRole("button", { name: "Send code" }).click();
    await expect(page.getByText("Code sent to +55 11 91234-5678.")).toBeVisible();
    // Resend only after the cooldown, shown as a countdown.
    await expect(page.getByRole("button", { name: /Send again in \d+ s/ })).toBeDisabled();

    const code = await sandbox.smsCode("5511912345678");
    expect(code).toMatch(/^\d{6}$/);
    const wrong = code === "000000" ? "111111" : "000000";
    const field = page.getByLabel("Code received");
    await field.fill(wrong);
    await page.getByRole("button", { name: "Validate code" }).click();
    await expect(page.getByText("This code is wrong or has expired. Check the code the person read out, or send a new one.")).toBeVisible();
    await expect(field).toHaveAttribute("aria-invalid", "true");

    await field.fill(code!);
    await page.getByRole("button", { name: "Validate code" }).click();
    await expect(page.getByRole("status").filter({ hasText: "Phone confirmed" })).toBeVisible();
    await expect(page.getByText("+55 11 91234-5678 received the code and it was validated.")).toBeVisible();
  });
});
