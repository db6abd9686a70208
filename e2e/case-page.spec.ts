import { settledAxe } from "./axe";
import { caseOf, createVerification, moveUpstream, reviewCase, WRITE } from "./case-support";
import { expect, test } from "./fixtures";

/*
 * The case page built for a day of reviews (issue 22): honest summaries, reasons that mean something,
 * outcomes that move, the decision on one screen and the keyboard. Each test makes its own verifications.
 */

test.describe("honest summaries", () => {
  test("a verification whose steps are pending shows no green all-clear, and names the open steps", async ({ analystPage: page }) => {
    const { publicId } = await createVerification(page.request);
    await page.goto(`/verifications/${publicId}`);
    const summary = page.locator("section[aria-labelledby=red-flags-heading]");
    // With no red flag it says this is not an all-clear; with one (the sandbox may list the person), it still names the open steps.
    if ((await summary.getAttribute("data-red-flags")) === "0") await expect(summary).toContainText("not every check has finished");
    await expect(summary).toContainText("Not finished:");
    await expect(page.getByText("No red flags: not PEP, on no restrictive list, checks passed, risk not high.")).toHaveCount(0);
  });

  test("the case says since when it waits and, apart, when the dashboard first saw it; the queue says why it is there", async ({
    analystPage: page,
  }) => {
    const { publicId } = await reviewCase(page.request);
    await page.goto(`/verifications/${publicId}`);
    await expect(page.getByTestId("case-waiting-since")).not.toHaveText("");
    await expect(page.getByTestId("case-first-seen")).not.toHaveText("—");
    await page.goto("/cases?queue=open&age=under_1d&per_page=200");
    const row = page.getByTestId("case-row").filter({ hasText: publicId.slice(0, 13) });
    // Why it is there: its priority and the reason for it (red flags, time to due, a re-verification waiting).
    await expect(row).toContainText(/priority: \S/);
  });
});

test.describe("reasons that mean something", () => {
  test("a reprove offers only reprove reasons and needs one and a comment; the confirmer sees reasons, comment and author", async ({
    analystPage: page,
    adminPage: admin,
    staff,
  }) => {
    const { publicId } = await reviewCase(page.request);
    const claimed = await page.request.post(`/api/cases/${encodeURIComponent(publicId)}/assignment`, {
      headers: WRITE,
      data: { assignee: "me" },
    });
    expect(claimed.status()).toBe(200);
    // The server refuses an approve citing a document mismatch, naming the field.
    const wrong = await page.request.post(`/api/cases/${encodeURIComponent(publicId)}/outcome`, {
      headers: WRITE,
      data: { recommendation: "approve", reasons: ["document_mismatch"], comment: "" },
    });
    expect(wrong.status()).toBe(400);
    expect(((await wrong.json()) as { error: { fields: string[] } }).error.fields).toEqual(["reasons"]);

    await page.goto(`/verifications/${publicId}`);
    const form = page.getByRole("form", { name: "Recommendation", exact: true });
    await form.getByRole("radio", { name: "Reprove" }).check();
    await expect(form.getByRole("checkbox", { name: "Identity confirmed" })).toHaveCount(0);
    await expect(form.getByRole("checkbox", { name: "Document data does not match" })).toBeVisible();
    // Neither a reason nor a comment: refused before it is sent, each field saying why.
    await form.getByRole("button", { name: "Record recommendation" }).click();
    await expect(form.getByText("Pick at least one reason.")).toBeVisible();
    await expect(form.getByText("A reprove needs a comment saying why.")).toBeVisible();
    expect((await caseOf(page.request, publicId)).outcomeState).toBeNull();

    await form.getByRole("checkbox", { name: "Document data does not match" }).check();
    await form.getByRole("textbox", { name: /^Comment/ }).fill("Birth date differs from the registry.");
    await form.getByRole("button", { name: "Record recommendation" }).click();
    await expect(page.getByTestId("case-outcome")).toContainText("You recorded this recommendation");

    await admin.goto(`/verifications/${publicId}`);
    const outcome = admin.getByTestId("case-outcome");
    await expect(outcome).toContainText(`Reprove by ${staff.analyst.email}`);
    await expect(outcome.getByTestId("case-outcome-reasons")).toHaveText("Reasons: Document data does not match");
    await expect(outcome.getByTestId("case-outcome-comment")).toHaveText("Birth date differs from the registry.");
    const timelineOutcome = admin.getByTestId("case-timeline").getByRole("listitem").filter({ hasText: "Recommendation: Reprove" });
    await expect(timelineOutcome).toContainText("Reasons: Document data does not match");
    await expect(timelineOutcome).toContainText("Birth date differs from the registry.");
  });
});

test.describe("outcomes that move", () => {
  test("a confirmed reprove leaves Open for Decided and closes on the provider's status; an escalation goes to Escalated", async ({
    analystPage: page,
    adminPage: admin,
    staff,
  }) => {
    const post = (who: typeof page, publicId: string, path: string, data: unknown) =>
      who.request.post(`/api/cases/${encodeURIComponent(publicId)}${path}`, { headers: WRITE, data });
    const decided = await reviewCase(page.request);
    expect((await post(page, decided.publicId, "/assignment", { assignee: "me" })).status()).toBe(200);
    const recorded = await post(page, decided.publicId, "/outcome", {
      recommendation: "reprove",
      reasons: ["document_mismatch"],
      comment: "Name differs.",
    });
    expect(recorded.status()).toBe(200);
    expect((await post(admin, decided.publicId, "/outcome/confirm", { agree: true, comment: "" })).status()).toBe(200);

    const row = (publicId: string) => page.getByTestId("case-row").filter({ hasText: publicId.slice(0, 13) });
    await page.goto("/cases?queue=open&per_page=200");
    await expect(page.getByTestId("case-row").first()).toBeVisible();
    await expect(row(decided.publicId)).toHaveCount(0);
    await page.goto("/cases?queue=decided&per_page=200");
    await expect(row(decided.publicId)).toContainText("Decided here");
    await page.goto(`/verifications/${decided.publicId}`);
    await expect(page.getByTestId("case-stage")).toContainText("waiting for the provider's final status");

    await moveUpstream(decided.publicId, "reproved");
    await expect.poll(async () => (await caseOf(page.request, decided.publicId)).status, { timeout: 20_000 }).toBe("closed");

    const escalated = await reviewCase(page.request);
    expect((await post(page, escalated.publicId, "/assignment", { assignee: "me" })).status()).toBe(200);
    const sent = await post(page, escalated.publicId, "/outcome", {
      recommendation: "escalate",
      reasons: ["needs_more_information"],
      comment: "",
    });
    expect(sent.status()).toBe(200);
    await page.goto("/cases?queue=escalated&per_page=200");
    await expect(row(escalated.publicId)).toContainText("Escalated");
    await admin.goto(`/verifications/${escalated.publicId}`);
    await admin.getByRole("button", { name: "Take this escalation" }).click();
    await expect(admin.getByTestId("case-stage")).toContainText(`Owner: ${staff.admin.email}`);
  });
});

test.describe("the case page at 1440×900", () => {
  test.use({ viewport: { width: 1440, height: 900 } });

  test("by keyboard alone from the queue to a confirmed reprove in at most 6 presses; the decision panel on the first screen; next and back keep the queue", async ({
    analystPage: page,
    adminPage: admin,
    staff,
  }) => {
    const { publicId } = await reviewCase(page.request);
    await reviewCase(page.request); // a second case of the same queue, for "next"
    await page.goto("/cases?queue=open&sort=age&age=under_1d&per_page=200");
    await page.waitForLoadState("networkidle");
    let presses = 0;
    const press = async (target: typeof page, key: string) => {
      presses += 1;
      await target.keyboard.press(key);
    };
    // Other tests' cases share the queue: j moves to this test's own row (in daily work it is the top row, 0 presses).
    const rows = page.getByTestId("case-row");
    const ids = await rows.getByRole("link").allTextContents();
    const index = ids.findIndex((text) => text.startsWith(publicId.slice(0, 13)));
    expect(index).toBeGreaterThanOrEqual(0);
    await page.locator("body").press("k");
    for (let step = 0; step < index; step += 1) await page.keyboard.press("j");
    await expect(rows.nth(index)).toHaveAttribute("aria-current", "true");

    // No separate claim (issue 32): the decision key takes the unassigned case, as the team's default take mode says.
    await press(page, "Enter");
    await expect(page).toHaveURL(new RegExp(`/verifications/${publicId}\\?cases=`));
    const panel = page.getByTestId("decision-panel");
    const form = page.getByRole("form", { name: "Recommendation", exact: true });
    await expect(panel.getByRole("button", { name: "Assign to me" })).toBeVisible();
    await page.waitForLoadState("networkidle");
    // Everything needed to decide is on the first screen: the panel, its reasons and its button within 900 px.
    expect((await panel.boundingBox())!.y).toBeLessThan(900);

    await press(page, "x");
    await expect(form).toBeVisible();
    const reason = form.getByRole("checkbox", { name: "Document data does not match" });
    await expect(reason).toBeFocused();
    await press(page, "1");
    await expect(reason).toBeChecked();
    await press(page, "c");
    await page.keyboard.type("Birth date differs from the registry.");
    const submit = form.getByRole("button", { name: "Record recommendation" });
    const box = (await submit.boundingBox())!;
    expect(box.y + box.height).toBeLessThanOrEqual(900);
    await press(page, "Control+Enter");
    await expect(page.getByTestId("case-outcome")).toContainText("You recorded this recommendation");
    // The focus left the comment for the panel's heading: the next key is a shortcut, not text (issue 32).
    await expect(page.locator("#case-panel-title")).toBeFocused();

    // The second person confirms, by keyboard too.
    await admin.setViewportSize({ width: 1440, height: 900 });
    await admin.goto(`/verifications/${publicId}`);
    await expect(admin.getByTestId("case-outcome").getByTestId("case-outcome-reasons")).toHaveText("Reasons: Document data does not match");
    await admin.waitForLoadState("networkidle");
    await press(admin, "y");
    await expect(admin.getByTestId("case-outcome")).toContainText(`Confirmed by ${staff.admin.email}`);
    expect(presses).toBeLessThanOrEqual(6);
    console.log(`key presses from the queue to a confirmed reprove: ${presses} (plus typed text; ${index} j to find the row)`);

    // ? lists the page's shortcuts: no Esc first, the focus left the comment when it was sent.
    await page.keyboard.press("?");
    const dialog = page.getByRole("dialog", { name: "Keyboard shortcuts" });
    for (const label of ["Recommend reprove: its reasons appear", "Next case of the queue", "Back to the queue, as you left it"]) {
      await expect(dialog.getByText(label)).toBeVisible();
    }
    await page.keyboard.press("Escape");
    await expect(dialog).toBeHidden();
    const results = await (await settledAxe(page)).analyze();
    expect(results.violations).toEqual([]);

    // Next keeps the queue's filter and sort; back returns to the queue as it was.
    const next = page.locator("a[rel=next]");
    if ((await next.count()) > 0) {
      await page.keyboard.press("j");
      await expect(page).toHaveURL(/\?cases=queue%3Dopen%26sort%3Dage%26age%3Dunder_1d$/);
      await expect(page).not.toHaveURL(new RegExp(publicId));
    }
    await page.keyboard.press("u");
    await expect(page).toHaveURL(/\/cases\?queue=open&sort=age&age=under_1d$/);
  });
});

test.describe("the case page on a phone", () => {
  test.use({ viewport: { width: 390, height: 844 } });

  test("is no wider than the screen and the decision panel is one tap away", async ({ analystPage: page }) => {
    const { publicId } = await reviewCase(page.request);
    await page.goto(`/verifications/${publicId}`);
    await expect(page.getByTestId("case-assignee")).toBeAttached();
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
    await page.getByRole("link", { name: "Go to the decision panel" }).click();
    await expect(page).toHaveURL(/#decision-panel$/);
    await expect(page.getByRole("heading", { name: /^Case/ })).toBeInViewport();
  });
});
