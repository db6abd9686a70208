import { baseURL } from "@/playwright.config";

import { answerStepUp, expect, signInContext, test } from "./fixtures";
import { newMember } from "./step-up-support";
import { inEnglish } from "./verification-support";

/*
 * Connections in a real browser: an admin adds the sandbox's production key as a connection, switches to it, sees
 * production's verifications under the production marker, opens one, switches back, and the same address under the
 * sandbox connection is not found. The key typed is never on a page again. A member an admin gives the sandbox only
 * (the staff page's Connections dialog) never sees production: not in the header, not at its address.
 */

test("an admin adds the production key, switches to it, and a production verification is not found under sandbox", async ({
  adminPage: page,
  staff,
}) => {
  await inEnglish(page);
  await answerStepUp(page, staff.admin.password);
  await page.goto("/admin/connections");
  await expect(page.getByRole("heading", { level: 1, name: "Connections" })).toBeVisible();

  const name = `Production E2E ${Date.now()}`;
  await page.getByRole("button", { name: "Add connection" }).click();
  const dialog = page.getByRole("dialog", { name: "Add a connection" });
  await dialog.getByLabel("Name").fill(name);
  await dialog.getByLabel("Environment").selectOption("production");
  await dialog.getByLabel("API key").fill("sbx_core_production");
  await dialog.getByRole("button", { name: "Test and add" }).click();
  await expect(dialog).toBeHidden();
  const card = page.getByRole("listitem").filter({ has: page.getByRole("heading", { name }) });
  await expect(card).toContainText("…tion");
  await expect(card.getByText("Unmasked personal data")).toBeVisible();
  await expect(page.locator("body")).not.toContainText("sbx_core_production");
  const id = (await card.getByText(/^\/c\//).textContent())!.replace("/c/", "");

  // Switch from the page's header: the same page under the new connection.
  await page.goto("/verifications");
  await page.getByTestId("connection-current").click();
  await page
    .getByRole("list", { name: "Other connections" })
    .getByRole("link", { name: new RegExp(name) })
    .click();
  await expect(page).toHaveURL(new RegExp(`/c/${id}/verifications`));
  await expect(page.getByTestId("connection-current")).toContainText("Production");
  const first = page.getByRole("table").getByRole("link").first();
  // The address itself names the connection, as the server drew it: opened in a new tab, it stays on production.
  await expect(first).toHaveAttribute("href", new RegExp(`^/c/${id}/verifications/`));
  await expect(page.getByRole("navigation", { name: "Main navigation" }).getByRole("link", { name: "Cases" })).toHaveAttribute(
    "href",
    `/c/${id}/cases`,
  );
  await first.click();
  await expect(page).toHaveURL(new RegExp(`/c/${id}/verifications/[A-Za-z0-9_-]+`));
  const publicId = new URL(page.url()).pathname.split("/").pop()!;
  await expect(page.getByRole("heading", { level: 1 })).toBeVisible();

  // Back to the sandbox: the same verification is not there.
  await page.getByTestId("connection-current").click();
  await page
    .getByRole("list", { name: "Other connections" })
    .getByRole("link", { name: /^Sandbox/ })
    .click();
  await expect(page).toHaveURL(new RegExp(`/c/primary/verifications/${publicId}$`));
  await expect(page.getByTestId("connection-current")).toContainText("Sandbox");
  await expect(page.getByRole("heading", { level: 1 })).toContainText(/not found/i);
  // …and the page names a connection that holds it (the seeded production dataset holds it too), with the way there.
  const note = page.getByTestId("verification-elsewhere");
  await expect(note).toContainText(/It belongs to the connection .+ \(production\)/);
  await note.getByRole("link").click();
  await expect(page).toHaveURL(new RegExp(`/c/[a-z0-9-]+/verifications/${publicId}$`));
  await expect(page.getByTestId("connection-current")).toContainText("Production");
  await expect(page.getByRole("heading", { level: 1 })).not.toContainText(/not found/i);
});

test("a member given the sandbox only never sees the production connection", async ({ adminPage: page, browser, staff }) => {
  test.setTimeout(120_000);
  const member = await newMember(page.request, browser, staff.admin, "analyst", "sandbox-only");
  await inEnglish(page);
  await answerStepUp(page, staff.admin.password);
  await page.goto("/admin/staff");
  await page.getByRole("button", { name: `Connections: ${member.name}` }).click();
  const dialog = page.getByRole("dialog", { name: `Connections of ${member.name}` });
  await dialog.getByLabel("Only the connections ticked below").check();
  await dialog.getByLabel(/^Sandbox \(sandbox\)$/).check();
  await dialog.getByRole("button", { name: "Save" }).click();
  await expect(dialog.getByText(/^Saved\./)).toBeVisible();

  const context = await browser.newContext();
  try {
    await context.addCookies([{ name: "NEXT_LOCALE", value: "en", url: baseURL }]);
    await signInContext(context, member);
    const memberPage = await context.newPage();
    await memberPage.goto("/verifications");
    await expect(memberPage.getByTestId("connection-current")).toContainText("Sandbox");
    // One connection to use: no switcher at all, and production named nowhere on the page.
    await expect(memberPage.getByTestId("connection-switcher")).toHaveCount(0);
    await expect(memberPage.locator("body")).not.toContainText("Produção (sandbox)");
    const direct = await memberPage.goto("/c/production/verifications");
    expect(direct?.status()).toBe(404);
    await expect(memberPage.getByRole("heading", { level: 1 })).toContainText("Not found");
    const api = await memberPage.request.get("/api/verifications?connection=production");
    expect(api.status()).toBe(404);
  } finally {
    await context.close();
  }
});

test("a connection's flows are offered when a verification is created under it, the first preselected", async ({
  adminPage: page,
  staff,
}) => {
  await inEnglish(page);
  await answerStepUp(page, staff.admin.password);
  await page.goto("/admin/connections");
  const name = `Flows E2E ${Date.now()}`;
  await page.getByRole("button", { name: "Add connection" }).click();
  const dialog = page.getByRole("dialog", { name: "Add a connection" });
  await dialog.getByLabel("Name").fill(name);
  // The primary's own dataset through a key that reads masked: a connection whose key read CPFs unmasked would have
  // its case sync teach the search index every seeded person, which other tests need unknown.
  await dialog.getByLabel("API key").fill("sbx_core_view");
  await dialog.getByLabel("Flows").fill("kyc-faceindex Onboarding\nkyc-sow Source of wealth");
  await dialog.getByRole("button", { name: "Test and add" }).click();
  await expect(dialog).toBeHidden();
  const card = page.getByRole("listitem").filter({ has: page.getByRole("heading", { name }) });
  await expect(card).toContainText("Onboarding, Source of wealth");
  const id = (await card.getByText(/^\/c\//).textContent())!.replace("/c/", "");

  await page.goto(`/c/${id}/verifications`);
  await page.getByRole("button", { name: "New verification" }).click();
  const create = page.getByRole("dialog", { name: "Create a verification" });
  const flow = create.getByRole("combobox", { name: "Flow" });
  await expect(flow).toHaveValue("kyc-faceindex");
  await flow.selectOption({ label: "Source of wealth (kyc-sow)" });
  await create.getByLabel("Your reference id").fill(`e2e-flows-${Date.now()}`);
  await create.getByLabel("Document number").fill("529.982.247-25");
  const posted = page.waitForRequest((request) => request.method() === "POST" && request.url().includes("/api/verifications"));
  await create.getByRole("button", { name: "Create verification" }).click();
  expect((await posted).postDataJSON()).toMatchObject({ flowPublicId: "kyc-sow" });
  await expect(create.getByText("Verification created")).toBeVisible();
  // Retired again, from its card: its case sync would otherwise work the primary's dataset a second time for the rest
  // of the run. The card is drawn again by the server, retired, with no actions left.
  await page.goto("/admin/connections");
  const again = page.getByRole("listitem").filter({ has: page.getByRole("heading", { name }) });
  await again.getByRole("button", { name: `Retire ${name}` }).click();
  const confirm = page.getByRole("dialog", { name: `Retire ${name}?` });
  await confirm.getByRole("button", { name: "Retire" }).click();
  await expect(confirm).toBeHidden();
  await expect(again).toContainText("Retired on");
  await expect(again.getByRole("button", { name: `Test ${name}` })).toHaveCount(0);
});
