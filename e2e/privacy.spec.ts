import fs from "node:fs/promises";

import { baseURL } from "@/playwright.config";
import { pdfText } from "@/test/pdf-text";

import { answerStepUp, createVerification, expect, test } from "./fixtures";
import { expectNoViolations, fitsWidth } from "./step-up-support";

/*
 * The titular report (LGPD art. 18 and 19) in a real browser: an analyst creates a verification for a person of
 * this test's own and opens it; an admin asks for that person's report at /admin/privacy (the CPF typed in the
 * form, a step-up answered) and sees both processings with the analyst's name, then downloads the PDF, whose
 * extracted text holds them too. The CPF never reaches an address.
 */

test("an admin's titular report lists the analyst's creation and view, on screen and in the PDF", async ({
  analystPage,
  adminPage,
  staff,
}) => {
  test.setTimeout(90_000);
  const { publicId, cpf } = await createVerification(analystPage.request, "privacy");
  await analystPage.goto(`/verifications/${encodeURIComponent(publicId)}`);
  await expect(analystPage.getByRole("main").getByRole("heading", { level: 1 })).toBeVisible();

  // The worker's own analyst (e2e/fixtures.ts names them after the worker).
  const analystName = `Worker ${test.info().workerIndex + 1} Analyst`;
  const page = adminPage;
  await page.context().addCookies([{ name: "NEXT_LOCALE", value: "en", url: baseURL }]);
  const addresses: string[] = [];
  page.on("request", (request) => addresses.push(request.url()));
  await answerStepUp(page, staff.admin.password);
  await page.setViewportSize({ width: 1440, height: 900 });
  await page.goto("/admin/privacy");
  const main = page.getByRole("main");
  await expect(main.getByRole("heading", { level: 1, name: "Privacy" })).toBeVisible();
  // The retention policies, from GET /api/privacy/retention's source.
  await expect(main.getByTestId("retention-policies").getByRole("rowheader", { name: "Audit events" })).toBeVisible();

  await main.getByLabel("Person's CPF").fill(cpf);
  await main.getByRole("button", { name: "Show on screen" }).click();
  const processings = main.getByTestId("titular-processings");
  const created = processings.getByRole("row").filter({ hasText: "Verification created" });
  const viewed = processings.getByRole("row").filter({ hasText: "Verification opened" });
  await expect(created).toContainText(analystName);
  await expect(created).toContainText(staff.analyst.email);
  await expect(created).toContainText(publicId);
  await expect(viewed.first()).toContainText(analystName);
  await expect(main.getByTestId("titular-summary")).toContainText("***.");
  await expect(main.getByRole("heading", { name: "Stored today" })).toBeVisible();
  await expectNoViolations(page, "/admin/privacy with a report");
  expect(await fitsWidth(page)).toBe(true);

  const downloading = page.waitForEvent("download");
  await main.getByRole("button", { name: "Download PDF" }).click();
  // An assertion, not the bare wait, so the step-up dialog (the window is 5 s in this suite) gets its answer:
  // Playwright runs locator handlers only around actions and assertions.
  await expect(main.getByRole("status").filter({ hasText: "downloaded" })).toBeVisible();
  const download = await downloading;
  expect(download.suggestedFilename()).toMatch(/^titular-report-\d{8}-\d{6}\.pdf$/);
  const text = (await pdfText(new Uint8Array(await fs.readFile((await download.path())!)))).replace(/\s+/g, " ");
  expect(text).toContain("Report of the processing of personal data");
  expect(text).toContain(analystName);
  expect(text).toContain("Verification created");
  expect(text).toContain("Verification opened");

  // The CPF travelled in bodies only.
  const digits = cpf.replace(/\D/g, "");
  expect(addresses.filter((address) => address.includes(digits) || address.includes(cpf))).toEqual([]);

  // A phone: the report's rows are cards, nothing scrolls sideways.
  await page.setViewportSize({ width: 390, height: 844 });
  await expect(created).toBeVisible();
  expect(await fitsWidth(page)).toBe(true);
});
