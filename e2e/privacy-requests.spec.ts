import { maskCpf } from "@/lib/shared/cpf";

import { expect, randomCpf, test } from "./fixtures";
import { inEnglish } from "./verification-support";

/*
 * A titular request on its clock (LGPD art. 18 and 19) in a real browser: an admin registers a person's request at
 * /admin/privacy, sees it among the open ones, 15 days left from its receipt, shown by the masked CPF only, and closes
 * it with a written answer; it moves to the closed ones, on time. The CPF never reaches an address.
 */

test("a titular request is registered, counted down from its receipt, and closed with a written answer", async ({ adminPage: page }) => {
  await inEnglish(page);
  const addresses: string[] = [];
  page.on("request", (request) => addresses.push(request.url()));
  const cpf = randomCpf();
  const masked = maskCpf(cpf);
  await page.goto("/admin/privacy");
  await page.getByLabel("CPF of the person making the request").fill(cpf);
  await page.getByLabel("What the person asks").selectOption("access");
  await page.getByLabel("Received through").selectOption("email");
  await page.getByRole("button", { name: "Register request" }).click();
  await expect(page.getByText(`Request for ${masked} registered`)).toBeVisible();

  const open = page.getByRole("list", { name: "Open titular requests, late first" });
  const item = open.getByRole("listitem").filter({ has: page.getByRole("button", { name: `Close the request of ${masked}` }) });
  await expect(item).toContainText(/1[45] days left/);
  await item.getByRole("button", { name: `Close the request of ${masked}` }).click();
  const dialog = page.getByRole("dialog", { name: `Close the request of ${masked}` });
  await dialog.getByLabel("What was sent").selectOption("written");
  await dialog.getByLabel("Written answer").fill("We hold no data beyond the verification's record; its copy was sent by email.");
  await dialog.getByRole("button", { name: "Close request" }).click();
  await expect(dialog).toBeHidden();
  await expect(open.getByRole("button", { name: `Close the request of ${masked}` })).toHaveCount(0);
  const closed = page.getByRole("list", { name: "Recently closed titular requests" });
  await expect(closed.getByRole("listitem").filter({ hasText: "On time." }).first()).toBeVisible();
  const digits = cpf.replace(/\D/g, "");
  expect(addresses.filter((address) => address.includes(digits) || address.includes(cpf))).toEqual([]);
});
