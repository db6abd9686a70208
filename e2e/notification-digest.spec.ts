import type { APIRequestContext } from "@playwright/test";

import { settledAxe } from "./axe";
import { createVerification, moveUpstream, reviewCase, waitForOpenCase, WRITE } from "./case-support";
import { backdateUpstream, expect, test } from "./fixtures";

/*
 * Notifications people read (issue 32): several overdue cases of one member are one digest on their bell, "N cases
 * overdue in your queue", linking to their queue filtered to overdue, and its count goes down as the cases are
 * handled; a notification about one case names it by its ref_id and turns read once the case is handled.
 *
 * The SLA job runs every minute on the server: the digest shows within about a minute of the cases being overdue.
 */

interface Item {
  id: number;
  kind: string;
  cases: number | null;
  caseRef: string | null;
  casePublicId: string;
  href: string;
  read: boolean;
}

const inbox = async (request: APIRequestContext) =>
  ((await (await request.get("/api/notifications")).json()) as { items: Item[]; unread: number }).items;

/** A case opened for a verification the service created `days` ago: overdue at once (the SLA is 24 hours). */
async function overdueCase(admin: APIRequestContext): Promise<{ publicId: string; refId: string }> {
  const made = await createVerification(admin, "e2e-digest");
  await backdateUpstream(made.publicId, 3);
  await moveUpstream(made.publicId, "review");
  // Read by the admin: the member whose bell is tested has not opened it.
  await waitForOpenCase(admin, made.publicId);
  return made;
}

const post = (request: APIRequestContext, publicId: string, path: string, data: unknown) =>
  request.post(`/api/cases/${encodeURIComponent(publicId)}${path}`, { headers: WRITE, data });

const digestText = /^(\d+) (cases? overdue in your queue|casos? pass\S+ do prazo na sua fila)$/;

test("several overdue cases are one digest on the bell; handling one counts it down; a handled case's notification turns read", async ({
  analystPage: page,
  adminPage: admin,
  staff,
}) => {
  test.setTimeout(180_000);
  expect((await page.request.post("/api/notifications/read", { headers: WRITE, data: { all: true } })).status()).toBe(200);
  const overdue = [await overdueCase(admin.request), await overdueCase(admin.request), await overdueCase(admin.request)];
  for (const { publicId } of overdue) expect((await post(page.request, publicId, "/assignment", { assignee: "me" })).status()).toBe(200);

  // One unread digest covers them (the job's next run), and no notification per case.
  await expect
    .poll(async () => (await inbox(page.request)).filter((item) => item.kind === "overdue_digest" && !item.read).length, {
      timeout: 100_000,
      intervals: [2_000],
    })
    .toBe(1);
  const items = await inbox(page.request);
  expect(items.filter((item) => item.kind === "case_overdue")).toEqual([]);
  const digest = items.find((item) => item.kind === "overdue_digest" && !item.read)!;
  expect(digest.cases).toBeGreaterThanOrEqual(3);
  expect(digest.href).toBe("/c/primary/cases?queue=mine&overdue=true");

  await page.goto("/");
  const bell = page.getByTestId("notification-bell");
  await bell.click();
  const list = page.getByTestId("notification-list");
  const digestLink = list.getByRole("link", { name: digestText });
  await expect(digestLink).toHaveCount(1);
  await expect(digestLink).toHaveText(new RegExp(`^${digest.cases} `));
  await expect(digestLink).toHaveAttribute("href", "/c/primary/cases?queue=mine&overdue=true");
  expect((await (await settledAxe(page)).analyze()).violations).toEqual([]);

  // A case handled (a recommendation recorded): the digest counts one less, on the open bell.
  const recorded = await post(page.request, overdue[0]!.publicId, "/outcome", {
    recommendation: "reprove",
    reasons: ["document_mismatch"],
    comment: "Name differs.",
  });
  expect(recorded.status()).toBe(200);
  await expect(digestLink).toHaveText(new RegExp(`^${digest.cases! - 1} `), { timeout: 35_000 });

  // A case given to the analyst by the admin: named by its ref_id, unread; handled, it turns read.
  const routing = (await (await admin.request.get("/api/cases/routing")).json()) as { staff: { id: string; email: string }[] };
  const analystId = routing.staff.find((member) => member.email === staff.analyst.email)!.id;
  const given = await reviewCase(admin.request);
  expect((await post(admin.request, given.publicId, "/assignment", { assignee: analystId })).status()).toBe(200);
  const assigned = list.getByTestId("notification-item").filter({ hasText: given.refId });
  await expect(assigned).toHaveAttribute("data-read", "false", { timeout: 35_000 });
  await expect(assigned.getByRole("link")).toHaveText(new RegExp(`^(Case|Caso) ${given.refId}: (assigned to you|atribuído a você)$`));
  const outcome = await post(page.request, given.publicId, "/outcome", {
    recommendation: "reprove",
    reasons: ["document_mismatch"],
    comment: "Name differs.",
  });
  expect(outcome.status()).toBe(200);
  await expect(assigned).toHaveAttribute("data-read", "true", { timeout: 35_000 });
  await expect(digestLink).toHaveText(new RegExp(`^${digest.cases! - 1} `));
});
