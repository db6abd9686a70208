import fs from "node:fs";

import type { Page } from "@playwright/test";

import { ADMIN_SECTIONS, NAV_ITEMS } from "@/components/layout/nav-items";
import { RISK_BANDS } from "@/lib/cases/red-flags";
import { baseURL } from "@/playwright.config";

import { settledAxe } from "./axe";
import { expect, stepUpDialog, test } from "./fixtures";

/*
 * Analyst ergonomics: what is above the fold on a desktop and a phone, the red flags first, the face
 * comparison's synced zoom, sorting and the way back keeping the filters, the list's CSV export, the audit
 * page's CPF search, and axe on every page.
 */

interface Item {
  publicId: string;
  status: string;
  flow?: string;
  journey?: string;
  riskScore: number | null;
  pepOrigin: string | null;
  restrictiveLists: Array<{ name?: string }>;
  steps: Array<{ name: string; state: string | null; similarity?: number; notices: Array<{ code?: string; message: string }> }>;
}
interface ListAnswer {
  items: Item[];
  pagination: { total: number };
}

const DESKTOP = { width: 1440, height: 900 };
const PHONE = { width: 390, height: 844 };
const FLOWS: Record<string, string> = {
  default: "Standard KYC",
  "kyc-faceindex": "KYC with face index",
  "kyc-sow": "KYC with source of wealth",
};

async function inLocale(page: Page, locale: "en" | "pt-BR"): Promise<void> {
  await page.context().addCookies([{ name: "NEXT_LOCALE", value: locale, url: baseURL }]);
}

/** The first verification, over the first pages, that `matches`. */
async function findVerification(page: Page, matches: (item: Item) => boolean, query = ""): Promise<Item> {
  for (let number = 1; number <= 5; number += 1) {
    const answer = (await (await page.request.get(`/api/verifications?per_page=100&page=${number}${query}`)).json()) as ListAnswer;
    const found = answer.items.find(matches);
    if (found) return found;
  }
  throw new Error("no verification in the sandbox matches");
}

/** Fully inside the viewport, without scrolling. */
async function aboveTheFold(page: Page, selector: string): Promise<boolean> {
  return page.locator(selector).evaluate((element) => {
    const box = element.getBoundingClientRect();
    return box.top >= 0 && box.bottom <= window.innerHeight && box.height > 0;
  });
}

test.describe("detail", () => {
  for (const viewport of [DESKTOP, PHONE]) {
    test(`the red-flag summary is above the fold at ${viewport.width}×${viewport.height}, naming each list`, async ({
      analystPage: page,
    }) => {
      await inLocale(page, "en");
      await page.setViewportSize(viewport);
      const target = await findVerification(page, (item) => item.restrictiveLists.length > 0);
      await page.goto(`/verifications/${target.publicId}`);
      const summary = page.locator("section[aria-labelledby=red-flags-heading]");
      await expect(summary).toBeVisible();
      expect(await aboveTheFold(page, "section[aria-labelledby=red-flags-heading]")).toBe(true);
      if (target.pepOrigin) await expect(summary.locator("li[data-flag=pep]")).toContainText(target.pepOrigin);
      for (const entry of target.restrictiveLists) await expect(summary).toContainText(entry.name!);
    });
  }

  test("risk is drawn on a banded scale with a legend, and flagged when high", async ({ analystPage: page }) => {
    await inLocale(page, "en");
    const high = RISK_BANDS.find((entry) => entry.band === "high")!.from;
    const target = await findVerification(page, (item) => (item.riskScore ?? 0) >= high);
    await page.goto(`/verifications/${target.publicId}`);
    const risk = page.getByRole("meter", { name: "Risk score" });
    await expect(risk).toHaveAttribute("aria-valuetext", new RegExp(`${target.riskScore}.*High risk`));
    await expect(page.getByRole("list", { name: "Risk bands" }).getByRole("listitem")).toHaveText([
      ...RISK_BANDS.map((entry, index) => {
        const next = RISK_BANDS[index + 1];
        return new RegExp(`${entry.band[0]!.toUpperCase()}${entry.band.slice(1)} risk: ${entry.from}–${next ? next.from - 1 : ""}`);
      }),
    ]);
    await expect(page.locator("li[data-flag=high_risk]")).toBeVisible();
  });

  test("decided_at shows only on outcomes, and flows are labelled", async ({ analystPage: page }) => {
    await inLocale(page, "en");
    const target = await findVerification(page, (item) => item.status === "review" && item.flow !== undefined && item.flow in FLOWS);
    await page.goto(`/verifications/${target.publicId}`);
    const summary = page.locator("section[aria-labelledby=summary-heading]");
    // In review: no decision date, whatever the service sent.
    await expect(summary).toContainText("Not decided yet");
    await expect(summary).toContainText(FLOWS[target.flow!]!);
  });

  test("notice codes read from the catalogue in Portuguese, with the service's text beside", async ({ analystPage: page }) => {
    await inLocale(page, "pt-BR");
    const target = await findVerification(page, (item) =>
      item.steps.some((step) => step.notices.some((notice) => notice.code === "OCR_MISMATCH_NAME")),
    );
    const notice = target.steps.flatMap((step) => step.notices).find((candidate) => candidate.code === "OCR_MISMATCH_NAME")!;
    await page.goto(`/verifications/${target.publicId}`);
    const item = page.locator("li[data-notice=OCR_MISMATCH_NAME]").first();
    await expect(item).toContainText("O nome no documento difere do cadastro do CPF.");
    // The quotation marks around the service's text are drawn by <q>, not part of the text.
    await expect(item).toContainText(`Texto do serviço: ${notice.message}`);
  });
});

test("face comparison: zoom where the pointer is moves both pictures alike; keys, rotation and full screen", async ({
  analystPage: page,
}) => {
  await inLocale(page, "en");
  await page.setViewportSize(DESKTOP);
  const target = await findVerification(page, (item) => item.steps.some((step) => step.name === "liveness" && step.state === "approved"));
  await page.goto(`/verifications/${target.publicId}`);
  const section = page.locator("section[aria-labelledby=faces-heading]");
  await section.scrollIntoViewIfNeeded();
  for (const key of ["selfie", "document_front"]) {
    const image = section.locator(`[data-face-frame=${key}] img`);
    await expect.poll(() => image.evaluate((element: HTMLImageElement) => element.complete && element.naturalWidth > 0)).toBe(true);
  }
  await expect(section.getByRole("meter", { name: "Similarity" })).toBeVisible();
  await expect(section).toContainText("80 % validity line");

  const wrappers = section.locator("[data-face-viewport] > div");
  const views = () =>
    wrappers.evaluateAll((elements) =>
      elements.map((element) =>
        [element.getAttribute("data-zoom"), element.getAttribute("data-x"), element.getAttribute("data-y")].join("|"),
      ),
    );
  const viewport = (await section.locator("[data-face-frame=selfie] [data-face-viewport]").boundingBox())!;
  // Wheel over a point a quarter of the way in: that point stays under the pointer (x' = p − p·1.25).
  const px = Math.round(viewport.width / 4);
  await page.mouse.move(viewport.x + px, viewport.y + px);
  await page.mouse.wheel(0, -100);
  await expect.poll(async () => (await views())[0]).toMatch(/^1\.25\|/);
  const [selfieView, documentView] = await views();
  expect(documentView).toBe(selfieView);
  const [, x] = selfieView!.split("|");
  expect(Math.abs(Number(x) - -0.25 * px)).toBeLessThanOrEqual(1);

  // Drag pans both.
  await page.mouse.down();
  await page.mouse.move(viewport.x + px - 30, viewport.y + px - 10);
  await page.mouse.up();
  const [panned, pannedDocument] = await views();
  expect(panned).not.toBe(selfieView);
  expect(pannedDocument).toBe(panned);

  // Keyboard: zoom in, rotate, reset.
  await section.getByRole("group", { name: /zoomed and panned together/ }).focus();
  await page.keyboard.press("+");
  await expect(section.getByText(/^Zoom 156 %, rotated 0°$/)).toBeVisible();
  await page.keyboard.press("r");
  await expect(section.locator("[data-face-viewport] img").first()).toHaveAttribute("style", /rotate\(90deg\)/);
  await expect(section.locator("[data-face-viewport] img").last()).toHaveAttribute("style", /rotate\(90deg\)/);
  await page.keyboard.press("0");
  await expect(section.getByText(/^Zoom 100 %, rotated 0°$/)).toBeVisible();

  await section.getByRole("button", { name: "Full screen" }).click();
  await expect.poll(() => page.evaluate(() => document.fullscreenElement?.getAttribute("aria-labelledby") ?? null)).toBe("faces-heading");
  await section.getByRole("button", { name: "Leave full screen" }).click();
  await expect.poll(() => page.evaluate(() => document.fullscreenElement)).toBeNull();
});

test.describe("list", () => {
  test("at 1440×900 at least 15 rows are above the fold with the filters folded", async ({ analystPage: page }) => {
    await inLocale(page, "en");
    await page.setViewportSize(DESKTOP);
    await page.goto("/verifications?per_page=20");
    await expect(page.locator("table tbody tr")).toHaveCount(20);
    await expect(page.locator("details[data-filters]")).not.toHaveAttribute("open", "");
    const rows = await page
      .locator("table tbody tr")
      .evaluateAll((all) =>
        all.map((row) => ({ bottom: row.getBoundingClientRect().bottom, height: Math.round(row.getBoundingClientRect().height) })),
      );
    const visible = rows.filter((row) => row.bottom <= 900).length;
    console.log(`rows fully above the fold at 1440×900: ${visible}`);
    // Every row one line high, whatever the data the other tests left (the list shows the newest verifications).
    const top = await page.locator("table").evaluate((table) => Math.round(table.getBoundingClientRect().top));
    expect(new Set(rows.map((row) => row.height)), `row heights; the table starts at ${top} px`).toEqual(new Set([rows[0]!.height]));
    expect(visible, `the table starts at ${top} px`).toBeGreaterThanOrEqual(15);
  });

  test("on a phone: one card per verification and no sideways scroll", async ({ analystPage: page }) => {
    await inLocale(page, "en");
    await page.setViewportSize(PHONE);
    await page.goto("/verifications?per_page=20");
    // The rows are drawn as cards (components/ui/data-table.tsx): no column header is shown.
    await expect(page.locator("table tbody tr")).toHaveCount(20);
    await expect(page.locator("thead")).toBeHidden();
    expect(await page.evaluate(() => document.documentElement.scrollWidth <= document.documentElement.clientWidth)).toBe(true);
    await page.goto(`/verifications/${(await findVerification(page, () => true)).publicId}`);
    await expect(page.locator("section[aria-labelledby=red-flags-heading]")).toBeVisible();
    expect(await page.evaluate(() => document.documentElement.scrollWidth <= document.documentElement.clientWidth)).toBe(true);
  });

  test("sorting orders the page by risk; the detail's back link and previous/next keep filters and sort", async ({ analystPage: page }) => {
    await inLocale(page, "en");
    await page.setViewportSize(DESKTOP);
    await page.goto("/verifications?status=review&per_page=20");
    await expect(page.locator("table tbody tr")).toHaveCount(20);
    await page.getByRole("button", { name: /sort by Risk score/ }).click();
    await expect(page).toHaveURL(/sort=-risk_score/);
    await expect(page.getByRole("columnheader", { name: /Risk score/ })).toHaveAttribute("aria-sort", "descending");
    const risks = await page.locator("table tbody tr td:nth-of-type(6)").allTextContents();
    const numbers = risks.map((text) => Number(text.replace(/\D/g, "")));
    expect(numbers).toEqual([...numbers].sort((a, b) => b - a));
    await expect(page.getByText(/Sorting orders the rows of this page only/)).toBeVisible();
    const ids = await page.locator("table tbody tr th[role=rowheader]").allTextContents();

    await page.locator("table tbody tr").nth(1).getByRole("link").click();
    await expect(page).toHaveURL(new RegExp(`/verifications/${ids[1]}\\?list=`));
    const nav = page.getByRole("navigation", { name: "Verifications of the list" });
    await expect(nav).toContainText("2 of");
    await nav.getByRole("link", { name: /Next/ }).click();
    await expect(page).toHaveURL(new RegExp(`/verifications/${ids[2]}\\?list=`));
    await nav.getByRole("link", { name: /Previous/ }).click();
    await expect(page).toHaveURL(new RegExp(`/verifications/${ids[1]}\\?list=`));
    await page.getByRole("link", { name: "Back to verifications" }).click();
    await expect(page).toHaveURL(/\/verifications\?.*status=review.*sort=-risk_score/);
    await expect(page.getByRole("columnheader", { name: /Risk score/ })).toHaveAttribute("aria-sort", "descending");
  });
});

test("a verification created here shows its ref_id; the export holds the filtered list; the audit CPF search finds its creation and view", async ({
  adminPage: page,
  staff,
}) => {
  await inLocale(page, "en");
  await page.setViewportSize(DESKTOP);
  const refId = `ux-${Date.now()}`;
  await page.goto("/verifications");
  await page.getByRole("button", { name: "New verification" }).click();
  const dialog = page.getByRole("dialog", { name: "Create a verification" });
  await dialog.getByLabel("Schema version").fill("1");
  await dialog.getByLabel("Your reference id").fill(refId);
  await dialog.getByLabel("Document number").fill("390.533.447-05");
  await dialog.getByRole("button", { name: "Create verification" }).click();
  await dialog.getByRole("link", { name: "Open the verification" }).click();
  await expect(page).toHaveURL(/\/verifications\/[^/?]+$/);
  const publicId = new URL(page.url()).pathname.split("/").pop()!;
  await expect(page.locator("section[aria-labelledby=red-flags-heading]")).toBeVisible();

  await page.goto("/verifications?per_page=100");
  await expect(page.getByRole("row", { name: new RegExp(publicId) })).toContainText(refId);

  // Export under a filter: every matching verification, not only the page on screen. Not-opened ones of the
  // last thirty days before today: no browser test creates or moves one, so the count holds between the
  // two reads whatever the other worker does.
  const day = (days: number) => new Intl.DateTimeFormat("en-CA", { timeZone: "America/Sao_Paulo" }).format(Date.now() + days * 86_400_000);
  const filter = `status=not_opened&from=${day(-30)}&to=${day(-1)}&per_page=10`;
  await page.goto(`/verifications?${filter}`);
  const total = ((await (await page.request.get(`/api/verifications?${filter}`)).json()) as ListAnswer).pagination.total;
  expect(total, "more matches than one page holds").toBeGreaterThan(10);
  const download = page.waitForEvent("download");
  await page.getByRole("button", { name: "Export CSV" }).click();
  // The admin may see unmasked data: the export asks for a step-up first (the password, having no factor), then
  // goes on by itself.
  const stepUp = stepUpDialog(page);
  await stepUp.getByLabel("Password").fill(staff.admin.password);
  await stepUp.getByRole("button", { name: "Confirm" }).click();
  const file = await (await download).path();
  await expect(page.getByRole("status").filter({ hasText: "Export ready" })).toHaveText(
    `Export ready: ${total.toLocaleString("en")} rows.`,
  );
  const lines = fs.readFileSync(file, "utf8").split("\r\n").filter(Boolean);
  expect(lines).toHaveLength(total + 1);
  expect(lines.slice(1).every((line) => line.split(",")[4] === "not_opened")).toBe(true);

  await page.goto("/admin/audit");
  await page.getByLabel("Search by CPF").fill("390.533.447-05");
  await page.getByRole("button", { name: "Apply filters" }).click();
  const table = page.getByRole("table", { name: "Audit events, newest first" });
  // One page view's events are folded into one row: open every group to see each event.
  await expect(table.getByRole("button", { name: new RegExp(`^Opened case ${publicId}`) })).toBeVisible();
  const folded = table.locator('button[aria-expanded="false"]');
  for (let opened = 0; opened < 20 && (await folded.count()) > 0; opened += 1) {
    const before = await folded.count();
    await folded.first().click();
    await expect(folded).toHaveCount(before - 1);
  }
  await expect(folded).toHaveCount(0);
  await expect(table.getByRole("row").filter({ hasText: publicId }).filter({ hasText: "verification.create" }).first()).toBeVisible();
  await expect(table.getByRole("row").filter({ hasText: publicId }).filter({ hasText: "verification.view" }).first()).toBeVisible();
  // The action filter offers the real names.
  const offered = await page
    .locator("datalist option")
    .evaluateAll((options) => options.map((option) => (option as HTMLOptionElement).value));
  expect(offered).toEqual(expect.arrayContaining(["lookup.cpf_receita", "lookup.cpf_history", "kyc.session_start", "verification.export"]));
  expect(offered).not.toContain("lookup.cpf");
});

test.describe("axe: no violations", () => {
  /** Every page of the navigation (an admin sees all) and the member's own: a new page is checked without an edit here. */
  const PAGES = [...NAV_ITEMS.map((item) => item.href), ...ADMIN_SECTIONS.map((section) => section.href), "/account"];

  async function expectNoViolations(page: Page, where: string) {
    const result = await (await settledAxe(page)).analyze();
    const summary = result.violations.map(
      (violation) => `${violation.id}: ${violation.nodes.map((node) => node.target.join(" ")).join("; ")}`,
    );
    expect(summary, `axe on ${where}`).toEqual([]);
  }

  // A test per page and screen, each in its own time (one test walking them all ran out of time on a busy machine).
  for (const viewport of [DESKTOP, PHONE]) {
    for (const path of PAGES)
      test(`${path} at ${viewport.width}×${viewport.height}`, async ({ adminPage: page }) => {
        await inLocale(page, "pt-BR");
        await page.setViewportSize(viewport);
        await page.goto(path);
        await expect(page.getByRole("heading", { level: 1 })).toBeVisible();
        await expectNoViolations(page, path);
      });

    test(`a verification's detail at ${viewport.width}×${viewport.height}`, async ({ adminPage: page }) => {
      await inLocale(page, "pt-BR");
      await page.setViewportSize(viewport);
      const target = await findVerification(page, (item) => item.restrictiveLists.length > 0);
      await page.goto(`/verifications/${target.publicId}`);
      await expect(page.locator("section[aria-labelledby=faces-heading]")).toBeVisible();
      await expectNoViolations(page, "/verifications/[publicId]");
    });
  }

  test("the sign-in page", async ({ page }) => {
    await page.goto("/sign-in");
    await expect(page.getByRole("heading", { level: 1 })).toBeVisible();
    await expectNoViolations(page, "/sign-in");
  });
});
