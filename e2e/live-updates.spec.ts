import { randomUUID } from "node:crypto";

import { backdateUpstream, createVerification, expect, moveUpstream, test, WRITE } from "./fixtures";

/*
 * Live updates and saved views in a real browser against the sandbox.
 *
 * The queue: a case opened by the service's event (the sandbox's control route puts a verification in review
 * and sends the signed webhook) appears in an open queue page without a reload: the page's live stream
 * (GET /api/events/stream) hears `case.opened` and the queue reads again. The queue has no polling, so only
 * the stream can bring it. A marker on `window` proves no reload happened.
 *
 * Saved views: a filtered queue saved under a name shows in the navigation, and opening it applies the filter.
 */

test("a case opened by the service's event appears in an open queue page without a reload", async ({ analystPage: page }) => {
  const stream = page.waitForResponse((response) => response.url().includes("/api/events/stream") && response.status() === 200);
  await page.goto("/cases?queue=open&age=under_1d&per_page=200");
  await stream;
  await expect(page.getByRole("heading", { level: 1 })).toBeVisible();
  const { publicId } = await createVerification(page.request, "e2e-live-queue");
  await page.evaluate(() => ((window as unknown as { __noReload: boolean }).__noReload = true));
  const rows = page.getByTestId("case-row").filter({ hasText: publicId.slice(0, 13) });
  await expect(rows).toHaveCount(0);

  await moveUpstream(publicId, "review");
  await expect(rows).toHaveCount(1, { timeout: 20_000 });
  expect(await page.evaluate(() => (window as unknown as { __noReload?: boolean }).__noReload)).toBe(true);
});

test("a filtered queue saved as a view is in the navigation, and opening it applies the filter", async ({ analystPage: page }) => {
  const name = `Overdue PEP ${Date.now().toString(36)}`;
  await page.goto("/cases?queue=open");
  const flag = page.getByRole("combobox", { name: /^(Red flag|Alerta)/ });
  await flag.selectOption("pep");
  await expect(page).toHaveURL(/[?&]flag=pep(&|$)/);

  await page.getByRole("button", { name: /^(Save this view|Salvar esta visualização)$/ }).click();
  const dialog = page.getByRole("dialog");
  await dialog.getByLabel(/^(Name|Nome)$/).fill(name);
  await dialog.getByRole("button", { name: /^(Save view|Salvar visualização)$/ }).click();
  await expect(dialog).toBeHidden();
  await expect(page.getByRole("status").filter({ hasText: name })).toBeVisible();

  // Somewhere else, then back through the navigation.
  await page.goto("/cases?queue=open");
  await expect(flag).toHaveValue("");
  const navigation = page.getByRole("navigation", { name: /^(Main navigation|Navegação principal)$/ });
  // Listed under the Cases entry: focus on the entry drops the list down (once the views have loaded).
  await navigation.getByRole("link", { name: /^(Cases|Casos)$/ }).focus();
  await expect(navigation.getByRole("link", { name })).toBeVisible();
  await navigation.getByRole("link", { name }).focus();
  await page.keyboard.press("Enter");
  await expect(page).toHaveURL(/[?&]flag=pep(&|$)/);
  await expect(flag).toHaveValue("pep");

  // Deleted from the same list: gone from the navigation.
  await navigation.getByRole("link", { name: /^(Cases|Casos)$/ }).hover();
  await navigation.getByRole("button", { name: new RegExp(name) }).click();
  await expect(navigation.getByRole("link", { name })).toHaveCount(0);
});

interface Routing {
  autoAssign: boolean;
  capacity: number;
  queues: Array<{ id: string; name: string; members: Array<{ userId: string; lead: boolean }> }>;
  rules: Array<{ id?: string; queueId: string; conditions: Record<string, unknown> }>;
  staff: Array<{ id: string; email: string }>;
}

/** The routing configuration as PUT /api/cases/routing takes it back. */
const routingBody = (routing: Routing) => ({
  autoAssign: routing.autoAssign,
  capacity: routing.capacity,
  queues: routing.queues.map(({ id, name, members }) => ({ id, name, members })),
  rules: routing.rules.map(({ id, queueId, conditions }) => ({ id, queueId, conditions })),
});

test("a case the service sends to review is routed, auto-assigned and shown assigned in the open queue without a reload", async ({
  analystPage: page,
  adminPage: admin,
  staff,
}) => {
  // The routing configuration is the deployment's: this test's rule matches only what no other test makes (a case
  // whose verification is at least ten days old: the test's own verification, moved back twelve days at the sandbox;
  // every other test moves verifications it has just created), and the configuration is put back afterwards.
  const { publicId } = await createVerification(page.request, "e2e-live-routed");
  await backdateUpstream(publicId, 12);
  const before = (await (await admin.request.get("/api/cases/routing")).json()) as Routing;
  const analystId = before.staff.find((member) => member.email === staff.analyst.email)!.id;
  const queueId = randomUUID();
  const changed = await admin.request.put("/api/cases/routing", {
    headers: WRITE,
    data: {
      ...routingBody(before),
      autoAssign: true,
      capacity: 1000,
      queues: [
        ...routingBody(before).queues,
        { id: queueId, name: `E2E team ${queueId.slice(0, 8)}`, members: [{ userId: analystId, lead: true }] },
      ],
      rules: [{ queueId, conditions: { minAgeHours: 240 } }, ...routingBody(before).rules],
    },
  });
  expect(changed.status(), await changed.text()).toBe(200);
  try {
    const stream = page.waitForResponse((response) => response.url().includes("/api/events/stream") && response.status() === 200);
    await page.goto("/cases?queue=open&per_page=200");
    await stream;
    await page.evaluate(() => ((window as unknown as { __noReload: boolean }).__noReload = true));
    const row = page.getByTestId("case-row").filter({ hasText: publicId.slice(0, 13) });
    await expect(row).toHaveCount(0);

    await moveUpstream(publicId, "review");
    await expect(row).toHaveCount(1, { timeout: 20_000 });
    // Already assigned, to the queue's one member: the analyst watching it (the cell a card labels "Assignee").
    await expect(row.locator('[role=cell]:is([data-label="Assignee"], [data-label="Responsável"])')).toHaveText(/^(You|Você)$/);
    expect(await page.evaluate(() => (window as unknown as { __noReload?: boolean }).__noReload)).toBe(true);
  } finally {
    await admin.request.put("/api/cases/routing", { headers: WRITE, data: routingBody(before) });
    // The assignment told the worker's analyst; later tests of this worker start with a quiet bell.
    await page.request.post("/api/notifications/read", { headers: WRITE, data: { all: true } });
  }
});
