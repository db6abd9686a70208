import { createHmac } from "node:crypto";

import { baseURL } from "@/playwright.config";

import { expect, generatedSecrets, sandbox, test } from "./fixtures";

/*
 * The service's deliveries, as an integration admin sees them (issue 35, item 5). The sandbox sends a test delivery
 * through its own delivery path, signed like every other (sandbox/README.md, "Webhooks out"): the dashboard keeps it,
 * answers 2xx and lists it. A delivery whose body cannot be read is kept too, and from then on the administration
 * entry of the navigation carries a marker on every page, and the administration page says why and links to the
 * delivery health. The marker sits beside the entry's link, so no other test's "Admin" link changes name.
 */

test("a test delivery from the service is received and listed in the delivery health", async ({ adminPage: page }) => {
  const sent = await fetch(`${sandbox.url}/sandbox/webhooks/test`, { method: "POST" });
  expect(sent.status).toBe(200);
  expect(await sent.json()).toMatchObject({ event: "webhook.test", status: "delivered" });
  await page.goto("/admin/integrations");
  const deliveries = page.getByRole("table", { name: "The latest deliveries" });
  await expect(deliveries.getByRole("row").filter({ hasText: "webhook.test" }).first()).toContainText("Ignored");
});

test("an unreadable delivery marks the administration entry and is explained on its page", async ({ adminPage: page }) => {
  // Signed with the dashboard's current webhook key (a ring's first entry, as scripts/run.mjs hands it to the sandbox).
  const ring = generatedSecrets().webhookSigning!;
  const first = ring.split(",")[0]!.trim();
  const secret = /^[A-Za-z0-9_-]{1,32}:(.+)$/s.exec(first)?.[1] ?? first;
  const body = "{ not json";
  const t = Math.floor(Date.now() / 1000);
  const signature = `t=${t},v1=${createHmac("sha256", secret).update(`${t}.${body}`).digest("hex")}`;
  const received = await fetch(`${baseURL}/api/webhooks/verification-events`, {
    method: "POST",
    headers: { "content-type": "application/json", "X-Legitimuz-Signature": signature },
    body,
  });
  expect(received.status).toBe(200);

  await page.goto("/verifications");
  const nav = page.getByRole("navigation", { name: "Main navigation" });
  await expect(nav.getByRole("img", { name: "The service's deliveries are failing" })).toBeVisible();
  await expect(nav.getByRole("link", { name: "Admin", exact: true })).toBeVisible();
  await page.goto("/admin");
  await expect(page.getByText("The service's event deliveries are failing for this connection")).toBeVisible();
  await page.getByRole("link", { name: "See the delivery health" }).click();
  await expect(page).toHaveURL(/\/admin\/integrations#deliveries$/);
  await expect(page.getByText("could not be read in the last day")).toBeVisible();
});
