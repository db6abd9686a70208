import type { Browser } from "@playwright/test";

import { expect, signInContext, test, type Account } from "./fixtures";

async function signedInPage(browser: Browser, locale: string, analyst: Account) {
  const context = await browser.newContext({ locale });
  await signInContext(context, analyst);
  return { context, page: await context.newPage() };
}

test("a Portuguese browser gets pt-BR, and the user's choice of English sticks", async ({ browser, staff }) => {
  const { context, page } = await signedInPage(browser, "pt-BR", staff.analyst);
  await page.goto("/verifications");
  const nav = page.getByRole("navigation", { name: "Navegação principal" });
  await expect(nav.getByRole("link", { name: "Verificações" })).toHaveAttribute("aria-current", "page");
  // An analyst has no admin section.
  await expect(nav.getByRole("link", { name: "Administração" })).toHaveCount(0);
  await page.getByLabel("Idioma").selectOption("en");
  await expect(page.getByRole("navigation", { name: "Main navigation" }).getByRole("link", { name: "Verifications" })).toBeVisible();
  await page.reload();
  await expect(page.locator("html")).toHaveAttribute("lang", "en");
  await context.close();
});

test("Accept-Language chooses English when the user has not chosen", async ({ browser, staff }) => {
  const { context, page } = await signedInPage(browser, "en-GB", staff.analyst);
  await page.goto("/verifications");
  await expect(page.locator("html")).toHaveAttribute("lang", "en");
  await expect(page.getByRole("navigation", { name: "Main navigation" })).toBeVisible();
  await context.close();
});

test("a browser asking for neither language gets pt-BR", async ({ browser, staff }) => {
  const { context, page } = await signedInPage(browser, "fr-FR", staff.analyst);
  await page.goto("/verifications");
  await expect(page.locator("html")).toHaveAttribute("lang", "pt-BR");
  await context.close();
});
