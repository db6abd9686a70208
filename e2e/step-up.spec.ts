import { baseURL } from "@/playwright.config";

import { expect, signInContext, stepUpDialog, test, withStepUp, WRITE } from "./fixtures";
import { expectNoViolations, newMember, totpOf } from "./step-up-support";

/*
 * Step-up in place (issue 21): a sensitive action asks for the second factor in a dialog on top of the form,
 * and the form keeps what was typed; cancel and a wrong code are refused (the integration key's test is in
 * e2e/partners.spec.ts, the one file that creates keys, so its count of key creations stays its own). The browser suite runs with
 * STEP_UP_SECONDS=5 (playwright.config.ts), so a sign-in's own second factor stops counting after a short wait
 * instead of five minutes. Also: an admin ends another member's sessions from the staff page, and that
 * member's next request lands on the sign-in page.
 *
 * Each test makes members of its own through the worker's admin (never the demo accounts).
 */

test("an admin ends another member's sessions from the staff page; the member's next request goes to sign-in", async ({
  browser,
  adminPage,
  staff,
}) => {
  const member = await newMember(adminPage.request, browser, staff.admin, "analyst", "sessions");

  // The member, signed in in a browser of their own.
  const memberContext = await browser.newContext();
  await memberContext.addCookies([{ name: "NEXT_LOCALE", value: "en", url: baseURL }]);
  await signInContext(memberContext, member);
  const memberPage = await memberContext.newPage();
  await memberPage.goto("/verifications");
  await expect(memberPage.getByRole("heading", { level: 1 })).toBeVisible();

  // The admin sees that session and ends them all.
  const page = adminPage;
  await page.context().addCookies([{ name: "NEXT_LOCALE", value: "en", url: baseURL }]);
  await page.goto("/admin/staff");
  const row = page.getByRole("row", { name: new RegExp(member.name) });
  await row.getByRole("button", { name: `Sessions: ${member.name}` }).click();
  const dialog = page.getByRole("dialog", { name: `Sessions of ${member.name}` });
  await expect(dialog).toBeVisible();
  const sessions = dialog.getByTestId("staff-session");
  await expect(sessions).toHaveCount(1);
  await expect(sessions.first()).toContainText(/Chrom/);
  await expectNoViolations(page, "the member's sessions");
  await dialog.getByRole("button", { name: "End all sessions" }).click();
  await expect(dialog.getByRole("status")).toContainText("1 session ended.");
  await expect(dialog.getByText("No live sessions.")).toBeVisible();

  // The member's next request: to the sign-in page.
  await memberPage.goto("/verifications");
  await expect(memberPage).toHaveURL(/\/sign-in/);
  await memberContext.close();
});

test("an admin resets a member's second factors after a confirmation and a step-up with the password", async ({
  browser,
  adminPage,
  staff,
}) => {
  const member = await newMember(adminPage.request, browser, staff.admin, "analyst", "reset");
  // The member enrols an authenticator app (through the API).
  const context = await browser.newContext();
  await signInContext(context, member);
  // Adding a factor asks for a fresh step-up: the member (no factor yet) answers with the password.
  const enrolled = await withStepUp(context.request, member.password, () =>
    context.request.post("/api/account/factors/totp", { headers: WRITE, data: { label: "Lost phone" } }),
  );
  const { id, secret } = (await enrolled.json()) as { id: string; secret: string };
  const verified = await withStepUp(context.request, member.password, () =>
    context.request.post(`/api/account/factors/totp/${encodeURIComponent(id)}/verify`, {
      headers: WRITE,
      data: { code: totpOf(secret).generate() },
    }),
  );
  expect(verified.status(), "confirming the authenticator app").toBe(200);
  await context.close();

  const page = adminPage;
  await page.context().addCookies([{ name: "NEXT_LOCALE", value: "en", url: baseURL }]);
  await page.goto("/admin/staff");
  const row = page.getByRole("row", { name: new RegExp(member.name) });
  await expect(row.getByTestId("second-factors")).toContainText("1 factor");
  await row.getByRole("button", { name: `Reset second factors: ${member.name}` }).click();
  const confirm = page.getByRole("dialog", { name: `Reset the second factors of ${member.name}?` });
  await expect(confirm).toContainText("enrol a second factor again");
  // The admin's step-up for the invite above (5 s here) must have passed, so the reset asks for one.
  await page.waitForTimeout(6_000);
  await confirm.getByRole("button", { name: "Reset second factors" }).click();

  // The admin has no factor: the step-up asks for the password, focused; a wrong one is refused, naming the field.
  const dialog = stepUpDialog(page);
  const password = dialog.getByLabel("Password", { exact: true });
  await expect(password).toBeFocused();
  await password.fill("not-the-password");
  await dialog.getByRole("button", { name: "Confirm" }).click();
  await expect(password).toHaveAttribute("aria-invalid", "true");
  await expect(dialog).toContainText("Password: this password was not accepted.");
  await password.fill(staff.admin.password);
  await dialog.getByRole("button", { name: "Confirm" }).click();
  await expect(dialog).toBeHidden();
  await expect(confirm).toBeHidden();
  await expect(page.getByRole("status").filter({ hasText: `Second factors of ${member.name} reset` })).toBeVisible();
  await expect(row.getByTestId("second-factors")).toContainText("none");
});
