import { expect, test } from "@playwright/test";

test("the shell speaks pt-BR by default and switches to English on request", async ({ page }) => {
  await page.goto("/verifications");
  const nav = page.getByRole("navigation", { name: "Navegação principal" });
  await expect(nav.getByRole("link", { name: "Verificações" })).toHaveAttribute("aria-current", "page");
  await page.getByLabel("Idioma").selectOption("en");
  await expect(page.getByRole("navigation", { name: "Main navigation" }).getByRole("link", { name: "Verifications" })).toBeVisible();
  await page.reload();
  await expect(page.locator("html")).toHaveAttribute("lang", "en");
});

test("Accept-Language chooses English when the user has not chosen", async ({ browser }) => {
  const context = await browser.newContext({ locale: "en-GB" });
  const page = await context.newPage();
  await page.goto("/verifications");
  await expect(page.locator("html")).toHaveAttribute("lang", "en");
  await context.close();
});
