import { settledAxe } from "./axe";
import { reviewCase, WRITE } from "./case-support";
import { expect, test } from "./fixtures";

/*
 * Decision templates (issue 32): an admin writes a team reprove template on /admin/cases and edits its comment (keyboard
 * only); an analyst applies it on a case by its number (`x`, `t`, the number) and records it with Ctrl+Enter, the new
 * comment's placeholders filled with the case's facts. Each run names its template apart and retires it at the end, so
 * other runs' numbers do not move.
 */

test("an admin's team reprove template, edited, applied by its number and recorded with its new comment's placeholders filled", async ({
  adminPage: admin,
  analystPage: page,
}) => {
  // Two members, a case made and moved upstream, and the admin page twice: more than one page's worth of work.
  test.setTimeout(120_000);
  const name = `Blurry photo ${Date.now().toString(36)}`;
  await admin.goto("/admin/cases");
  const form = admin.getByRole("form", { name: "New team template" });
  await form.getByRole("radio", { name: "Reprove" }).check();
  await form.getByLabel("Name").fill(name);
  await form.getByRole("checkbox", { name: "Image quality too low" }).check();
  await form
    .getByRole("textbox", { name: "Comment", exact: true })
    .fill("Blurry document photo. Verification of {verification_date}, ref {ref_id}.");
  await form.getByRole("button", { name: "Add team template" }).click();
  const teamList = admin.getByRole("list", { name: "The team's templates" });
  await expect(teamList.getByRole("listitem").filter({ hasText: name })).toBeVisible();
  expect((await (await settledAxe(admin)).include("section[aria-labelledby=team-templates-title]").analyze()).violations).toEqual([]);

  // Edited from the list, keyboard only: the dialog holds the template as written; the new comment is what applies.
  const edit = teamList.getByRole("button", { name: `Edit the template ${name}` });
  await edit.focus();
  await admin.keyboard.press("Enter");
  const dialog = admin.getByRole("dialog", { name: `Edit the template “${name}”` });
  await expect(dialog.getByRole("radio", { name: "Reprove" })).toBeChecked();
  await expect(dialog.getByLabel("Name")).toHaveValue(name);
  await expect(dialog.getByRole("checkbox", { name: "Image quality too low" })).toBeChecked();
  const edited = dialog.getByRole("textbox", { name: "Comment", exact: true });
  await expect(edited).toHaveValue("Blurry document photo. Verification of {verification_date}, ref {ref_id}.");
  await edited.fill("Photo too blurry to read: retake it. Verification of {verification_date}, ref {ref_id}.");
  expect((await (await settledAxe(admin)).include("[role=dialog]").analyze()).violations).toEqual([]);
  await dialog.getByRole("button", { name: "Save changes" }).press("Enter");
  await expect(dialog).toHaveCount(0);
  await expect(edit).toBeFocused();
  await expect(teamList.getByRole("listitem").filter({ hasText: name })).toContainText("Photo too blurry to read: retake it.");

  const { publicId, refId } = await reviewCase(page.request);
  const claimed = await page.request.post(`/api/cases/${encodeURIComponent(publicId)}/assignment`, {
    headers: WRITE,
    data: { assignee: "me" },
  });
  expect(claimed.status()).toBe(200);
  await page.goto(`/verifications/${publicId}`);
  const decision = page.getByRole("form", { name: "Recommendation", exact: true });
  await expect(decision.getByRole("button", { name: "Record recommendation" })).toBeVisible();
  await page.getByRole("heading", { name: /Case/ }).first().focus();
  await page.keyboard.press("x");
  const option = decision.getByRole("option").filter({ hasText: name });
  await expect(option).toBeVisible();
  const number = (await option.locator("kbd").textContent())!.trim();
  await page.keyboard.press("t");
  await expect(decision.getByRole("combobox", { name: /Template/ })).toBeFocused();
  await page.keyboard.press(number);

  await expect(decision.getByRole("checkbox", { name: /Image quality too low/ })).toBeChecked();
  await expect(decision.getByRole("checkbox", { checked: true })).toHaveCount(1);
  const comment = decision.getByRole("textbox", { name: /^Comment/ });
  await expect(comment).toBeFocused();
  const detail = (await (await page.request.get(`/api/cases/${encodeURIComponent(publicId)}`)).json()) as {
    case: { verificationCreatedAt: string };
  };
  const date = new Intl.DateTimeFormat("en", { timeZone: "America/Sao_Paulo", year: "numeric", month: "2-digit", day: "2-digit" }).format(
    new Date(detail.case.verificationCreatedAt),
  );
  const expected = `Photo too blurry to read: retake it. Verification of ${date}, ref ${refId}.`;
  await expect(comment).toHaveValue(expected);
  expect(date).toMatch(/\d{4}/);

  await page.keyboard.press("Control+Enter");
  await expect(page.getByTestId("case-outcome")).toContainText("You recorded this recommendation");
  const recorded = (await (await page.request.get(`/api/cases/${encodeURIComponent(publicId)}`)).json()) as {
    case: { recommendation: string; reasons: string[]; outcomeComment: string; outcomeState: string };
  };
  expect(recorded.case).toMatchObject({
    recommendation: "reprove",
    reasons: ["low_image_quality"],
    outcomeComment: expected,
    outcomeState: "pending_confirmation",
  });

  // The analyst may not manage the team's templates; the admin retires this one.
  const template = (
    (await (await page.request.get("/api/cases/templates?kind=reprove")).json()) as { templates: Array<{ id: string; name: string }> }
  ).templates.find((item) => item.name === name)!;
  expect((await page.request.delete(`/api/cases/templates/${template.id}`, { headers: WRITE })).status()).toBe(403);
  await admin.reload();
  await teamList.getByRole("button", { name: `Retire the template ${name}` }).click();
  await expect(teamList.getByRole("listitem").filter({ hasText: name })).toHaveCount(0);
});
