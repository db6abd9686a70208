import type { APIRequestContext, Page } from "@playwright/test";

import { cpfOfPerson, flaggedCaseWithFaces } from "./case-support";
import { expect, test } from "./fixtures";

/*
 * The analyst's loop as issue 32 measured it, by keyboard alone: from the queue filtered by a red flag, the keys
 * to a recorded reprove and on to the next case, with the evidence's top edge on the first screen without any
 * scrolling, at 1440×900 and at 1280×720. Before: `a` to claim, Enter, then two or three Page Down to reach the
 * pictures (their top at 1,735–1,881 px), x, 1, c, the comment, Ctrl+Enter, then Esc (focus stayed in the
 * comment) and j. The figures are printed for the closing note; the test holds the limits.
 */

const SCREENS = [
  { width: 1440, height: 900 },
  { width: 1280, height: 720 },
] as const;

/** Keys from the queue to a recorded reprove (the comment's text apart), and to the next case after it. */
const MAX_KEYS_TO_REPROVE = 6;

/** A PEP's verification in review with both faces: its case opens unassigned, in the queue filtered by `pep`. */
const pepCase = (request: APIRequestContext) =>
  flaggedCaseWithFaces(request, "e2e-loop", () => cpfOfPerson((person) => person.pep, Math.floor(Math.random() * 999_000_000)));

/** The evidence's top edges as the page first shows it: the selfie, the document and the face match. */
async function evidenceTops(page: Page): Promise<Record<string, number>> {
  const faces = page.locator("section[aria-labelledby=faces-heading]");
  const parts = {
    selfie: faces.locator("[data-face-side=selfie]"),
    document: faces.locator("[data-face-side=document]"),
    "face match": faces.locator("[data-face-similarity]"),
  };
  const tops: Record<string, number> = {};
  for (const [name, part] of Object.entries(parts)) {
    await expect(part, name).toBeVisible();
    tops[name] = Math.round((await part.boundingBox())!.y);
  }
  return tops;
}

for (const screen of SCREENS) {
  test(`from the queue filtered by a red flag to a recorded reprove and the next case at ${screen.width}×${screen.height}: at most ${MAX_KEYS_TO_REPROVE} keys and the evidence on the first screen`, async ({
    analystPage: page,
  }) => {
    test.setTimeout(180_000);
    await page.setViewportSize(screen);
    const publicId = await pepCase(page.request);
    await pepCase(page.request); // the next case of the same queue

    const queue = "queue=unassigned&flag=pep&sort=age&age=under_1d";
    await page.goto(`/cases?${queue}&per_page=200`);
    await page.waitForLoadState("networkidle");
    // Other tests' cases share the queue: j moves to this test's row (in daily work it is the top row, no key).
    const rows = page.getByTestId("case-row");
    const ids = await rows.getByRole("link").allTextContents();
    const index = ids.findIndex((text) => text.startsWith(publicId.slice(0, 13)));
    expect(index).toBeGreaterThanOrEqual(0);
    await page.locator("body").press("k");
    for (let step = 0; step < index; step += 1) await page.keyboard.press("j");
    await expect(rows.nth(index)).toHaveAttribute("aria-current", "true");

    const keys: string[] = [];
    const press = async (key: string) => {
      keys.push(key);
      await page.keyboard.press(key);
    };
    await press("Enter");
    await expect(page).toHaveURL(new RegExp(`/verifications/${publicId}\\?cases=`));
    await page.waitForLoadState("networkidle");

    // The evidence is on the first screen as the page opens: no scroll, each top edge with room below it.
    const tops = await evidenceTops(page);
    expect(await page.evaluate(() => window.scrollY)).toBe(0);
    for (const [name, top] of Object.entries(tops)) expect(top + 120, `${name} on the first screen`).toBeLessThan(screen.height);

    // x on the unassigned case takes it and opens the reprove form, its first reason focused.
    await press("x");
    const form = page.getByRole("form", { name: "Recommendation", exact: true });
    const reason = form.getByRole("checkbox", { name: "Document data does not match" });
    await expect(reason).toBeFocused();
    await press("1");
    await expect(reason).toBeChecked();
    await press("c");
    const comment = "Birth date differs from the registry.";
    await page.keyboard.type(comment);
    await press("Control+Enter");
    await expect(page.getByTestId("case-outcome")).toContainText("You recorded this recommendation");
    const toReprove = keys.length;

    // The next key is a shortcut again, not text in the comment: j opens the next case.
    await press("j");
    await expect(page).not.toHaveURL(new RegExp(`/verifications/${publicId}`));
    await expect(page).toHaveURL(/\/verifications\/[^?]+\?cases=/);
    const recorded = (await (await page.request.get(`/api/cases/${encodeURIComponent(publicId)}`)).json()) as {
      case: { outcomeComment: string; recommendation: string };
    };
    expect(recorded.case).toMatchObject({ outcomeComment: comment, recommendation: "reprove" });
    const nextTops = await evidenceTops(page);

    expect(toReprove + 1).toBeLessThanOrEqual(MAX_KEYS_TO_REPROVE);
    console.log(
      `analyst loop at ${screen.width}×${screen.height}: ${toReprove} keys from the queue to a recorded reprove (${keys
        .slice(0, toReprove)
        .join(
          ", ",
        )}) plus the comment, 1 more to the next case; evidence top edges ${JSON.stringify(tops)}, on the next case ${JSON.stringify(nextTops)}; no scrolling`,
    );
  });
}

test("j pressed before the page's code has run opens the next case once the code arrives", async ({ analystPage: page }) => {
  const first = await pepCase(page.request);
  await pepCase(page.request);
  const queue = "queue=unassigned&flag=pep&sort=age&age=under_1d";
  const opened = `/verifications/${first}?${new URLSearchParams({ cases: queue }).toString()}`;
  // The page's scripts are held until the key has been pressed, as on a slow line: the HTML is on screen, its code
  // is not. A gate, not a delay: however slow the machine, the code cannot arrive before the key.
  let release!: () => void;
  const gate = new Promise<void>((resolve) => (release = resolve));
  // Scripts only: the style sheets (also under chunks/) hold the page's first paint and any inline script after
  // them, the shell's recorder included, so holding them would hold the recorder too.
  await page.route("**/_next/static/chunks/**/*.js", async (route) => {
    await gate;
    await route.continue();
  });
  await page.goto(opened, { waitUntil: "commit" });
  // The HTML is parsed and the shell's recorder runs; the page's code is still on its way.
  await expect.poll(() => page.evaluate(() => Array.isArray(window.__earlyKeys))).toBe(true);
  await page.keyboard.press("j");
  // Written down by the shell's inline recorder (once the key's dispatch is over): the page's code has not taken it yet.
  await expect.poll(() => page.evaluate(() => window.__earlyKeys?.map((entry) => entry.key))).toEqual(["j"]);
  release();
  await expect(page).not.toHaveURL(new RegExp(`/verifications/${first}`), { timeout: 30_000 });
  await expect(page).toHaveURL(/\/verifications\/[^/?]+\?cases=/);
});
