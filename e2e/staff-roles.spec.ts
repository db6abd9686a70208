import { baseURL } from "@/playwright.config";

import { answerStepUp, expect, signInContext, test, withStepUp, WRITE } from "./fixtures";
import { expectNoViolations, newMember, PHONE } from "./step-up-support";

/*
 * The staff page's role picker (issue 32): an admin gives an existing member a custom role from the staff list,
 * by keyboard, at a phone's width (no sideways scroll, axe clean), answering the step-up the API asks for; the
 * member's access follows on their next request: a page the viewer role did not reach opens.
 */

test("an admin gives an existing member a custom role through the picker, and the member's access changes", async ({
  browser,
  adminPage: page,
  staff,
}) => {
  test.setTimeout(120_000);
  const member = await newMember(page.request, browser, staff.admin, "viewer", "picker");
  const roleName = `Auditing readers ${Date.now()}`;
  const created = await withStepUp(page.request, staff.admin.password, () =>
    page.request.post("/api/roles", {
      headers: WRITE,
      data: { name: roleName, permissions: ["verifications.read", "cases.read", "audit.read"] },
    }),
  );
  expect(created.status(), await created.text()).toBe(201);

  // The member, as a viewer, does not reach the audit log.
  const memberContext = await browser.newContext();
  await memberContext.addCookies([{ name: "NEXT_LOCALE", value: "en", url: baseURL }]);
  await signInContext(memberContext, member);
  const memberPage = await memberContext.newPage();
  await memberPage.goto("/admin/audit");
  await expect(memberPage).toHaveURL(/\/not-allowed$/);

  // The admin, on a phone, opens the member's picker by keyboard and chooses the custom role.
  await answerStepUp(page, staff.admin.password);
  await page.context().addCookies([{ name: "NEXT_LOCALE", value: "en", url: baseURL }]);
  await page.setViewportSize(PHONE);
  await page.goto("/admin/staff");
  const change = page.getByRole("button", { name: `Change role: ${member.name}` });
  // Refused until the page's code runs: a disabled button takes no focus.
  await expect(change).toBeEnabled();
  await change.focus();
  await page.keyboard.press("Enter");
  const picker = page.getByRole("dialog", { name: `Role of ${member.name}`, exact: true });
  await expect(picker).toBeVisible();
  const group = picker.getByRole("group", { name: "Role" });
  for (const name of ["Viewer", "Analyst", "Reviewer", "Auditor", "Admin", roleName])
    await expect(group.getByRole("radio", { name, exact: true })).toBeVisible();
  await expect(group.getByRole("radio", { name: "Viewer", exact: true })).toBeChecked();
  expect(await page.evaluate(() => document.documentElement.scrollWidth <= document.documentElement.clientWidth)).toBe(true);
  await expectNoViolations(page, "the role picker at 390 px");

  // The custom role holds all the viewer's permissions and more: given at once, after the step-up.
  await group.getByRole("radio", { name: roleName, exact: true }).check();
  await picker.getByRole("button", { name: "Change role" }).click();
  await expect(picker).toBeHidden();
  const card = page.getByRole("row", { name: new RegExp(member.name) });
  await expect(card.getByText(roleName, { exact: true })).toBeVisible();

  // The member's next request: the audit log opens.
  await memberPage.goto("/admin/audit");
  await expect(memberPage.getByRole("heading", { level: 1, name: "Audit log" })).toBeVisible();
  await memberContext.close();
});
