import { DEMO, expect, signInContext, test } from "./fixtures";

test("the shell speaks pt-BR by default and switches to English on request", async ({ analystPage: page }) => {
  await page.goto("/verifications");
  const nav = page.getByRole("navigation", { name: "Navegação principal" });
  await expect(nav.getByRole("link", { name: "Verificações" })).toHaveAttribute("aria-current", "page");
  // An analyst has no admin section.
  await expect(nav.getByRole("link", { name: "Administração" })).toHaveCount(0);
  await page.getByLabel("Idioma").selectOption("en");
  await expect(page.getByRole("navigation", { name: "Main navigation" }).getByRole("link", { name: "Verifications" })).toBeVisible();
  await page.reload();
  await expect(page.locator("html")).toHaveAttribute("lang", "en");
});

test("Accept-Language chooses English when the user has not chosen", async ({ browser }) => {
  const context = await browser.newContext({ locale: "en-GB" });
  await signInContext(context, DEMO.analyst);
  const page = await context.newPage();
  await page.goto("/verifications");
  await expect(page.locator("html")).toHaveAttribute("lang", "en");
  await expect(page.getByRole("navigation", { name: "Main navigation" })).toBeVisible();
  await context.close();
});
