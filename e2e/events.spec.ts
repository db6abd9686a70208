import type { Page } from "@playwright/test";

import { createVerification, expect, moveUpstream, sandbox, test } from "./fixtures";

/*
 * Live updates end to end: the sandbox's control route decides a review case, the sandbox signs and sends
 * its webhooks to the dashboard's receiver, and the open pages show it without a reload. A marker on
 * `window` proves no reload happened (a reload would make a new window object). The two verifications are
 * the test's own, put in review first: the other worker's changes can show in the notice, never in these.
 */

/** The next change-feed answer that carries this verification's event with this status. */
function feedAnswerWith(page: Page, publicId: string, status: string) {
  return page.waitForResponse(
    async (response) => {
      if (!response.url().includes("/api/verification-events?after=") || !response.ok()) return false;
      // An answer whose body the browser already let go (the page moved on) is not the one awaited.
      const feed = (await response.json().catch(() => null)) as { changes: Array<{ publicId: string; status: string | null }> } | null;
      return feed?.changes.some((change) => change.publicId === publicId && change.status === status) ?? false;
    },
    { timeout: 20_000 },
  );
}

test("deciding a review case shows on an open list and on the open detail, without a reload", async ({ analystPage: page }) => {
  const listed = (await createVerification(page.request, "e2e-live")).publicId;
  const detailed = (await createVerification(page.request, "e2e-live")).publicId;
  for (const publicId of [listed, detailed]) await moveUpstream(publicId, "review");
  // The list's first read of the change feed learns the current cursor; with the live stream open it is the only
  // one, and it may come before the rows are drawn: listened for from before the page is opened.
  const firstFeed = page.waitForResponse((response) => response.url().includes("/api/verification-events") && response.ok());
  await page.goto("/verifications?status=review&per_page=50");
  for (const publicId of [listed, detailed])
    await expect(page.getByRole("row").getByRole("link", { name: new RegExp(publicId) })).toBeVisible();
  await firstFeed;
  await page.evaluate(() => ((window as unknown as { __noReload: boolean }).__noReload = true));

  const approved = feedAnswerWith(page, listed, "approved");
  await moveUpstream(listed, "approved");
  await approved;
  const notice = page.getByRole("status").filter({ hasText: /created or changed|criad|alterad/i });
  await expect(notice).toBeVisible();
  await expect(page.getByRole("row").getByRole("link", { name: new RegExp(listed) })).toBeVisible();
  // Changes the other worker makes after the click may raise the notice again: they are counted, so the notice's
  // clearing is asserted whenever no new change arrived.
  let laterChanges = 0;
  page.on("response", async (response) => {
    if (!response.url().includes("/api/verification-events?after=") || !response.ok()) return;
    const feed = (await response.json().catch(() => null)) as { changes: unknown[] } | null;
    laterChanges += feed?.changes.length ?? 0;
  });
  await notice.getByRole("button").click();
  // Shown on request: the approved case leaves the review list.
  await expect(page.getByRole("row").getByRole("link", { name: new RegExp(listed) })).toHaveCount(0);
  await expect.poll(async () => (await notice.count()) === 0 || laterChanges > 0).toBe(true);
  expect(await page.evaluate(() => (window as unknown as { __noReload?: boolean }).__noReload)).toBe(true);

  // The detail: its history and its status follow the next decision.
  await page
    .getByRole("row")
    .getByRole("link", { name: new RegExp(detailed) })
    .click();
  await expect(page.getByRole("heading", { level: 1 })).toContainText(detailed);
  const history = page.getByRole("region", { name: /event history|histórico de eventos/i });
  await expect(history).toBeVisible();
  const summary = page.getByRole("region", { name: /summary|resumo/i });
  await expect(summary.getByText(/review|revisão/i).first()).toBeVisible();
  await page.evaluate(() => ((window as unknown as { __noReload: boolean }).__noReload = true));

  await moveUpstream(detailed, "reproved");
  await expect(
    history
      .getByRole("listitem")
      .filter({ hasText: /reproved|reprovad/i })
      .first(),
  ).toBeVisible({ timeout: 20_000 });
  // The history saw the event and had the server draw the page again (router.refresh): one more round trip.
  await expect(summary.getByText(/reproved|reprovad/i).first()).toBeVisible({ timeout: 20_000 });
  expect(await page.evaluate(() => (window as unknown as { __noReload?: boolean }).__noReload)).toBe(true);

  // What the sandbox sent was accepted: each delivery got a 2xx from the receiver.
  const sent = (await (await fetch(`${sandbox.url}/sandbox/webhooks/deliveries`)).json()) as {
    deliveries: Array<{ public_id: string; status: string }>;
  };
  const ours = sent.deliveries.filter((delivery) => delivery.public_id === listed || delivery.public_id === detailed);
  expect(ours.length).toBeGreaterThanOrEqual(4);
  expect(ours.every((delivery) => delivery.status === "delivered")).toBe(true);
});
