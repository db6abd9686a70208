import AxeBuilder from "@axe-core/playwright";

import { reviewCase, WRITE } from "./case-support";
import { expect, test } from "./fixtures";

/*
 * Notifications in the app: a mention in a case note (by email) reaches the mentioned member's bell, which
 * counts it unread, lists it named by the case's ref_id with a link to the case, and passes axe with its popover
 * open. The overdue digest and read-when-handled: e2e/notification-digest.spec.ts.
 */

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
  const bell = page.getByRole("button", { name: /^(Notifications, 1 unread|Notificações, 1 não lida)$/ });
  await expect(bell).toBeVisible();
  await bell.click();
  await expect(bell).toHaveAttribute("aria-expanded", "true");
  const list = page.getByTestId("notification-list");
  // Named by the case's ref_id, and what happened.
  const link = list
    .getByRole("link", { name: `Case ${refId}: you were mentioned in a note` })
    .or(list.getByRole("link", { name: `Caso ${refId}: você foi mencionado em uma nota` }));
  await expect(link).toHaveAttribute("href", `/verifications/${publicId}`);
  await expect(list).toContainText(publicId);
  // Nothing of the note's text in the notification.
  await expect(list).not.toContainText("document photo");

  const results = await new AxeBuilder({ page }).analyze();
  expect(results.violations).toEqual([]);

  await link.click();
  await expect(page).toHaveURL(new RegExp(`/verifications/${publicId}$`));
  await expect(page.getByRole("button", { name: /^(Notifications, none unread|Notificações, nenhuma não lida)$/ })).toBeVisible({
    timeout: 10_000,
  });
});
