import fs from "node:fs";
import path from "node:path";

import type { Page } from "@playwright/test";

import { baseURL } from "@/playwright.config";

import { expect, test } from "./fixtures";

/*
 * Each page hands its client components only the catalogue paths they read (lib/i18n/client-messages.tsx).
 * A path left out shows up only in the browser, as next-intl's MISSING_MESSAGE error when a client
 * component renders: so every page is visited, in both languages, and its console watched. And the
 * other way round: a page's HTML must not carry other pages' messages.
 */

const LOCALES = ["pt-BR", "en"] as const;
type Locale = (typeof LOCALES)[number];

function catalogue(locale: Locale, namespace: string): Record<string, unknown> {
  return JSON.parse(fs.readFileSync(path.join("messages", locale, `${namespace}.json`), "utf8")) as Record<string, unknown>;
}

function strings(tree: unknown): string[] {
  if (typeof tree === "string") return [tree];
  return typeof tree === "object" && tree !== null ? Object.values(tree).flatMap(strings) : [];
}

/** Long plain runs of a namespace's messages: text that would only be in a page's HTML if the messages were. */
function telltales(locale: Locale, namespace: string, under?: string): string[] {
  const tree = catalogue(locale, namespace);
  return strings(under ? tree[under] : tree).flatMap((text) => text.match(/[\p{L} ,]{30,}/gu) ?? []);
}

async function inLocale(page: Page, locale: Locale): Promise<void> {
  await page.context().addCookies([{ name: "NEXT_LOCALE", value: locale, url: baseURL }]);
}

/** Console errors from next-intl (a message the provider did not hand down) and uncaught page errors. */
function watchMessageErrors(page: Page): string[] {
  const errors: string[] = [];
  page.on("console", (message) => {
    if (message.type() === "error" && /MISSING_MESSAGE|INSUFFICIENT_PATH|IntlError/.test(message.text())) errors.push(message.text());
  });
  page.on("pageerror", (error) => errors.push(error.message));
  return errors;
}

async function visit(page: Page, url: string, errors: string[]): Promise<void> {
  await page.goto(url);
  await expect(page.getByRole("heading", { level: 1 }).first()).toBeVisible();
  // Hydration (where a client component reads its messages in the browser) is done when the page is idle.
  await page.waitForLoadState("networkidle");
  expect(errors, `message errors on ${url}`).toEqual([]);
}

for (const locale of LOCALES) {
  test(`every page renders its client components without a missing message (${locale})`, async ({ adminPage: page, browser }) => {
    // A walk over seventeen pages, each to its network's idle, and two dialogs: 35–45 s on a quiet machine.
    test.setTimeout(150_000);
    await inLocale(page, locale);
    const errors = watchMessageErrors(page);
    const list = (await (await page.request.get("/api/verifications?per_page=1")).json()) as { items: Array<{ publicId: string }> };
    const somePublicId = list.items[0]!.publicId;
    for (const url of [
      "/",
      "/verifications",
      `/verifications/${encodeURIComponent(somePublicId)}`,
      "/cases",
      "/lookups/cpf",
      "/kyc",
      "/admin",
      "/admin/integrations",
      "/admin/staff",
      "/admin/roles",
      "/admin/audit",
      "/admin/privacy",
      "/compliance/coaf",
      "/account",
      "/change-password",
      "/no-such-page",
      // The detail segment's own not-found view, with its own messages.
      "/verifications/00000000-0000-4000-8000-000000000000",
    ]) {
      await visit(page, url, errors);
    }

    // Dialogs load their content when they open: it must come up with its messages and give focus back.
    const verifications = catalogue(locale, "verifications") as { create: { open: string; title: string } };
    await visit(page, "/verifications", errors);
    const open = page.getByRole("button", { name: verifications.create.open });
    await open.click();
    await expect(page.getByRole("dialog", { name: verifications.create.title })).toBeVisible();
    await page.keyboard.press("Escape");
    await expect(page.getByRole("dialog")).toHaveCount(0);
    await expect(open).toBeFocused();

    const staff = catalogue(locale, "staff") as { invite: { button: string; title: string } };
    await visit(page, "/admin/staff", errors);
    await page.getByRole("button", { name: staff.invite.button }).click();
    await expect(page.getByRole("dialog", { name: staff.invite.title })).toBeVisible();
    expect(errors).toEqual([]);

    const signedOut = await browser.newContext();
    try {
      const signInPage = await signedOut.newPage();
      await inLocale(signInPage, locale);
      const signInErrors = watchMessageErrors(signInPage);
      await visit(signInPage, "/sign-in", signInErrors);
    } finally {
      await signedOut.close();
    }
  });

  test(`a page's HTML holds its own messages and no other page's (${locale})`, async ({ adminPage: page }) => {
    await inLocale(page, locale);
    const html = await (await page.request.get("/verifications")).text();
    // The create dialog is closed, so its text is in the HTML only as messages handed to the client: this
    // proves the check below would see other namespaces' messages if they were there.
    const own = telltales(locale, "verifications", "create");
    expect(own.length).toBeGreaterThan(0);
    expect(own.filter((text) => html.includes(text))).not.toEqual([]);
    // A phrase the list's own messages also hold ("if it keeps failing, tell an administrator") proves nothing.
    const ownText = ["verifications", "events", "common", "cases", "auth", "errors"]
      .flatMap((namespace) => strings(catalogue(locale, namespace)))
      .join("\n");
    for (const namespace of ["audit", "staff", "integrations", "kyc", "overview"]) {
      const found = telltales(locale, namespace).filter((text) => !ownText.includes(text) && html.includes(text));
      expect(found, `${namespace} messages in the list page's HTML`).toEqual([]);
    }
    // Nor the detail page's own parts, which the list never shows.
    const detailOnly = telltales(locale, "verifications", "faces").filter((text) => html.includes(text));
    expect(detailOnly).toEqual([]);
  });
}
