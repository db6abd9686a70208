import type { Page } from "@playwright/test";

import { settledAxe } from "./axe";
import { reviewCase, WRITE } from "./case-support";
import { expect, test } from "./fixtures";

/*
 * Notifications in the app: a mention in a case note (by email) reaches the mentioned member's bell, which
 * counts it unread, lists it named by the case's ref_id with a link to the case, and passes axe with its popover
 * open. A recommendation confirmed by another member shows on its author's bell, naming who. The overdue digest and
 * read-when-handled: e2e/notification-digest.spec.ts.
 */

/**
 * Opening the case handled its notification: on the bell, opened again, the notification's item says read. Only this
 * one: the member may have others (an overdue digest) that this test did not handle.
 */
async function expectReadOnTheBell(page: Page, publicId: string): Promise<void> {
  const item = page.getByTestId("notification-item").filter({ has: page.locator(`a[href="/c/primary/verifications/${publicId}"]`) });
  await expect(async () => {
    const bell = page.getByTestId("notification-bell");
    if ((await bell.getAttribute("aria-expanded")) !== "true") await bell.click();
    await expect(item.first()).toBeVisible({ timeout: 2_000 });
    await expect(item.and(page.locator("[data-read=false]"))).toHaveCount(0, { timeout: 2_000 });
  }).toPass({ timeout: 10_000 });
}

test("a mention in a note shows on the mentioned member's bell, links to the case, and axe finds nothing", async ({
  analystPage: page,
  adminPage: admin,
  staff,
}) => {
  // Start from an empty count: whatever earlier tests told this worker's analyst is read.
  expect((await page.request.post("/api/notifications/read", { headers: WRITE, data: { all: true } })).status()).toBe(200);
  const { publicId, refId } = await reviewCase(admin.request);
  const note = await admin.request.post(`/api/cases/${encodeURIComponent(publicId)}/notes`, {
    headers: WRITE,
    data: { text: `@${staff.analyst.email} could you check the document photo?` },
  });
  expect(note.status()).toBe(201);

  await page.goto("/");
  // At least this one unread: the SLA job's overdue digest may tell the same member about cases earlier tests left.
  const bell = page.getByTestId("notification-bell");
  await expect(bell).toHaveAccessibleName(/^(Notifications, [1-9]\d* unread|Notificações, [1-9]\d* não lidas?)$/);
  await bell.click();
  await expect(bell).toHaveAttribute("aria-expanded", "true");
  const list = page.getByTestId("notification-list");
  // Named by the case's ref_id, and what happened.
  const link = list
    .getByRole("link", { name: `Case ${refId}: you were mentioned in a note` })
    .or(list.getByRole("link", { name: `Caso ${refId}: você foi mencionado em uma nota` }));
  await expect(link).toHaveAttribute("href", `/c/primary/verifications/${publicId}`);
  await expect(list).toContainText(publicId);
  // Nothing of the note's text in the notification.
  await expect(list).not.toContainText("document photo");

  const results = await (await settledAxe(page)).analyze();
  expect(results.violations).toEqual([]);

  await link.click();
  await expect(page).toHaveURL(new RegExp(`/verifications/${publicId}$`));
  await expectReadOnTheBell(page, publicId);
});

test("a confirmed recommendation shows on its author's bell, naming the case by its ref and who confirmed it", async ({
  analystPage: page,
  adminPage: admin,
}) => {
  expect((await page.request.post("/api/notifications/read", { headers: WRITE, data: { all: true } })).status()).toBe(200);
  // Read through the admin: the analyst reading the case would mark its notifications read (opened).
  const { publicId, refId } = await reviewCase(admin.request);
  const post = (who: typeof page, path: string, data: unknown) =>
    who.request.post(`/api/cases/${encodeURIComponent(publicId)}${path}`, { headers: WRITE, data });
  expect((await post(page, "/assignment", { assignee: "me" })).status()).toBe(200);
  const recorded = await post(page, "/outcome", { recommendation: "reprove", reasons: ["document_mismatch"], comment: "Name differs." });
  expect(recorded.status()).toBe(200);
  expect((await post(admin, "/outcome/confirm", { agree: true, comment: "" })).status()).toBe(200);

  await page.goto("/");
  const bell = page.getByTestId("notification-bell");
  await bell.click();
  const list = page.getByTestId("notification-list");
  // The admin of this worker's accounts is named "Worker <n> Admin" (e2e/fixtures.ts).
  const ref = refId.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
  const link = list
    .getByRole("link", { name: new RegExp(`^Case ${ref}: your recommendation was confirmed by Worker \\d+ Admin$`) })
    .or(list.getByRole("link", { name: new RegExp(`^Caso ${ref}: sua recomendação foi confirmada por Worker \\d+ Admin$`) }));
  await expect(link).toHaveAttribute("href", `/c/primary/verifications/${publicId}`);
  // Opening the case handles it for the analyst: read.
  await link.click();
  await expect(page).toHaveURL(new RegExp(`/verifications/${publicId}$`));
  await expectReadOnTheBell(page, publicId);
});
