import { settledAxe } from "./axe";
import { reviewCase, WRITE } from "./case-support";
import { expect, randomCpf, test } from "./fixtures";

/*
 * The same person (issue 23, item 7) and re-verification from a case (item 8). The sandbox's default key shows
 * documents masked, so the dashboard knows a person only by the CPF typed at a creation here: both verifications
 * of the person are created through the dashboard, and the re-verification's dialog asks for the CPF.
 */

async function createFor(request: import("@playwright/test").APIRequestContext, cpf: string): Promise<string> {
  const refId = `e2e-same-${Date.now()}-${Math.random().toString(36).slice(2, 8)}`;
  const created = await request.post("/api/verifications", {
    headers: WRITE,
    data: { schemaVersion: "1", refId, document: { type: "cpf", number: cpf } },
  });
  expect(created.status()).toBe(201);
  return ((await created.json()) as { created: { publicId: string } }).created.publicId;
}

test("the same person's other verification is shown on the detail, and its link opens it", async ({ analystPage: page }) => {
  const cpf = randomCpf();
  const first = await createFor(page.request, cpf);
  const second = await createFor(page.request, cpf);
  const stranger = await createFor(page.request, randomCpf());

  await page.goto(`/verifications/${first}?list=${encodeURIComponent("status=started")}`);
  const panel = page.getByTestId("same-person");
  await expect(panel.getByRole("heading", { name: "Same person" })).toBeVisible();
  const link = panel.getByRole("link", { name: new RegExp(second) });
  await expect(link).toBeVisible();
  await expect(panel).not.toContainText(stranger);
  await expect((await settledAxe(page)).include("[data-testid=same-person]").analyze()).resolves.toMatchObject({ violations: [] });
  await link.click();
  // The list context the page carried goes along.
  await expect(page).toHaveURL(new RegExp(`/verifications/${second}\\?list=`));
  await expect(page.getByTestId("same-person").getByRole("link", { name: new RegExp(first) })).toBeVisible();
});

test("a re-verification asked from a case appears in its timeline, and the case waits for it", async ({ analystPage: page }) => {
  const { publicId, cpf } = await reviewCase(page.request);
  const claimed = await page.request.post(`/api/cases/${encodeURIComponent(publicId)}/assignment`, {
    headers: WRITE,
    data: { assignee: "me" },
  });
  expect(claimed.status()).toBe(200);

  // When the button first appears, everything above it in the decision panel is already drawn: the outcome form's
  // reasons arriving after it pushed the button down under the pointer, and a click landed on what took its place.
  await page.addInitScript(() => {
    new MutationObserver((_, observer) => {
      if (!document.querySelector("[data-testid=case-reverify]")) return;
      (window as unknown as { __reasonsAtButton: number }).__reasonsAtButton = document.querySelectorAll("#case-reasons input").length;
      observer.disconnect();
    }).observe(document, { childList: true, subtree: true });
  });
  await page.goto(`/verifications/${publicId}`);
  await expect(page.getByTestId("case-reverify")).toBeVisible();
  expect(await page.evaluate(() => (window as unknown as { __reasonsAtButton?: number }).__reasonsAtButton)).toBeGreaterThan(0);
  await page.getByTestId("case-reverify").click();
  const dialog = page.getByRole("dialog", { name: "Ask the person to verify again" });
  await expect(dialog).toBeVisible();
  // The provider masks the document: the CPF is typed, and another person's is refused on the field.
  const field = dialog.getByLabel("The person's CPF");
  await field.fill(randomCpf());
  await dialog.getByTestId("reverification-submit").click();
  await expect(field).toHaveAttribute("aria-invalid", "true");
  await field.fill(cpf);
  await dialog.getByTestId("reverification-submit").click();
  const result = dialog.getByTestId("reverification-result");
  await expect(result).toBeVisible();
  await expect(dialog.getByLabel("Address for the person")).toHaveValue(/\/widget\//);
  await expect(dialog.getByRole("img", { name: "QR code of the address for the person" })).toBeVisible();
  const created = (await result.getByRole("alert").or(result.getByRole("status")).first().textContent()) ?? "";
  const newId = /New verification (\S+) created/.exec(created)?.[1];
  expect(newId).toBeTruthy();
  await page.keyboard.press("Escape");
  await expect(dialog).toBeHidden();

  await expect(page.getByTestId("case-timeline")).toContainText("Re-verification asked");
  await expect(page.getByTestId("case-timeline").getByRole("link", { name: new RegExp(newId!) })).toBeVisible();
  await expect(page.getByTestId("case-reverification-waiting")).toContainText(newId!);
  // The new verification is the same person's.
  await expect(page.getByTestId("same-person").getByRole("link", { name: new RegExp(newId!) })).toBeVisible();
});
