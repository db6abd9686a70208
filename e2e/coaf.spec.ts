import fs from "node:fs";

import { reviewCase } from "./case-support";
import { answerStepUp, expect, test } from "./fixtures";
import { inEnglish } from "./verification-support";

/*
 * Suspicious-activity reports to COAF in a real browser: an admin (who holds coaf.report) reports a review case from
 * its page with a summary and grounds (the step-up answered with the password), finds it at /compliance/coaf as a
 * draft with its deadline, records its SISCOAF protocol and sees it filed; the JSON dossier downloaded through the
 * row's link names the case. An analyst, without coaf.report, sees no such action on the case and no such page.
 */

test("an admin reports a case to COAF, records the protocol and downloads the dossier", async ({ adminPage: page, staff }) => {
  await inEnglish(page);
  await answerStepUp(page, staff.admin.password);
  const { publicId } = await reviewCase(page.request);
  const summary = `Deposits split under the threshold by a third party (${publicId.slice(0, 8)})`;
  const protocol = `SISCOAF-E2E-${Date.now().toString(36)}`;

  await page.goto(`/verifications/${encodeURIComponent(publicId)}`);
  await page.getByRole("button", { name: "Report to COAF" }).click();
  const dialog = page.getByRole("dialog", { name: "Report suspicious activity to COAF" });
  // Nothing chosen: each field is named, and nothing is sent.
  await dialog.getByRole("button", { name: "Open the draft report" }).click();
  await expect(dialog.getByText("Write a summary.")).toBeVisible();
  await expect(dialog.getByText("Choose at least one ground.")).toBeVisible();
  await dialog.getByRole("textbox", { name: "Summary", exact: true }).fill(summary);
  await dialog.getByRole("checkbox", { name: "Operation on behalf of a third party" }).check();
  await dialog.getByRole("checkbox", { name: "Inconsistent identity data" }).check();
  await dialog.getByRole("button", { name: "Open the draft report" }).click();
  await expect(dialog).toBeHidden();
  await expect(page.getByText("Draft report opened.")).toBeVisible();
  await page.getByRole("link", { name: "See it on the COAF reports page" }).click();

  await expect(page).toHaveURL(/\/compliance\/coaf#report-[0-9a-f-]{36}$/);
  const row = page.locator(`[data-testid="coaf-report-row"][data-case="${publicId}"]`);
  await expect(row).toHaveCount(1);
  await expect(row.getByTestId("coaf-status")).toHaveText("Draft");
  await expect(row.getByTestId("coaf-deadline")).toContainText(/\d{4}/);
  await expect(row).toContainText("Operation on behalf of a third party");

  await row.getByRole("button", { name: `Record the protocol of the report on case ${publicId}` }).click();
  const filing = page.getByRole("dialog", { name: "Record the SISCOAF protocol" });
  await filing.getByLabel("Protocol").fill(protocol);
  await filing.getByRole("button", { name: "Record" }).click();
  await expect(filing).toBeHidden();
  await expect(row.getByTestId("coaf-status")).toHaveText("Filed");
  await expect(row.getByTestId("coaf-protocol")).toContainText(protocol);
  await expect(row.getByRole("button", { name: /Record the protocol/ })).toHaveCount(0);

  const [download] = await Promise.all([
    page.waitForEvent("download"),
    row.getByRole("link", { name: `Dossier of the report on case ${publicId} as JSON` }).click(),
  ]);
  const dossier = JSON.parse(fs.readFileSync((await download.path())!, "utf8")) as {
    report: { casePublicId: string; summary: string; protocol: string; status: string };
    case: { publicId: string } | null;
  };
  expect(dossier.report).toMatchObject({ casePublicId: publicId, summary, protocol, status: "filed" });
  expect(dossier.case?.publicId).toBe(publicId);
});

test("an analyst without coaf.report sees no COAF action on a case and is not allowed on the reports page", async ({
  analystPage: page,
}) => {
  await inEnglish(page);
  const { publicId } = await reviewCase(page.request);
  await page.goto(`/verifications/${encodeURIComponent(publicId)}`);
  await expect(page.locator("#case-panel-title")).toBeVisible();
  await expect(page.getByRole("button", { name: "Report to COAF" })).toHaveCount(0);
  await expect(page.getByRole("navigation", { name: "Main navigation" }).getByRole("link", { name: "COAF" })).toHaveCount(0);
  await page.goto("/compliance/coaf");
  await expect(page).toHaveURL(/\/not-allowed$/);
});
