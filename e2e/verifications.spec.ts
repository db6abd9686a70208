import fs from "node:fs";
import path from "node:path";

import type { Page, Response } from "@playwright/test";
import { sealData, unsealData } from "iron-session";

import { expect, SAME_ORIGIN, sandbox, test } from "./fixtures";
import { inEnglish, type ListAnswer } from "./verification-support";

/*
 * A verification in a real browser, against a production build and the sandbox (embedded default key
 * `sbx_core_view_media`: view and media, masked data): its detail and images through /api/media, image tokens,
 * not found, creating one, and the portrait crop. The list is e2e/verification-list.spec.ts.
 */

/** Every text answer the browser receives, to search for the signed-URL address afterwards. */
function recordResponses(page: Page) {
  const seen: Array<{ url: string; body: string }> = [];
  const pending: Array<Promise<void>> = [];
  page.on("response", (response: Response) => {
    const type = response.headers()["content-type"] ?? "";
    const location = response.headers()["location"] ?? "";
    seen.push({ url: response.url(), body: location });
    // The live stream never ends: its body cannot be awaited (its frames hold topics and ids only).
    if (/json|html|javascript|text|x-component/.test(type) && !type.includes("text/event-stream")) {
      pending.push(
        response
          .text()
          .then((body) => void seen.push({ url: response.url(), body }))
          .catch(() => undefined),
      );
    }
  });
  return async () => {
    await Promise.all(pending);
    return seen;
  };
}

test.beforeEach(async ({ analystPage }) => {
  await inEnglish(analystPage);
});

test("a verification shows its steps, scores, notices and both images through /api/media, never the signed URL", async ({
  analystPage: page,
}) => {
  const responses = recordResponses(page);
  await page.goto("/verifications?status=review&per_page=50");
  // A review whose liveness was approved (so it has a selfie) and that OCR or facematch held, with a notice.
  const answer = (await (await page.request.get("/api/verifications?status=review&per_page=50")).json()) as {
    items: Array<{ publicId: string; steps: Array<{ name: string; state: string; notices: unknown[] }> }>;
  };
  const target = answer.items.find((item) => item.steps.some((step) => step.name === "liveness" && step.state === "approved"))!;
  await page.getByRole("link", { name: `Open verification ${target.publicId}` }).click();
  // The list's filters travel with the detail (back link, previous/next).
  await expect(page).toHaveURL(new RegExp(`/verifications/${target.publicId}\\?list=`));

  await expect(page.getByRole("heading", { level: 1 })).toContainText(target.publicId);
  const steps = page.locator("article[data-step]");
  await expect(steps).toHaveCount(3);
  await expect(steps.locator("h3")).toHaveText(["OCR", "Liveness", "Facematch"]);
  await expect(page.getByRole("meter", { name: "Identity score" })).toHaveAttribute("aria-valuenow", /\d/);
  await expect(page.getByRole("meter", { name: "Risk score" })).toHaveAttribute("aria-valuenow", /\d/);
  // The facematch step's own meter (the face comparison shows the same similarity beside the pictures).
  const facematch = page.locator("article[data-step=facematch]");
  await expect(facematch.getByRole("meter", { name: "Similarity" })).toBeVisible();
  await expect(facematch.getByText("80 % validity line")).toBeVisible();
  await expect(page.locator("article[data-step] li").first()).toBeVisible();
  await expect(page.getByRole("heading", { name: "PEP and restrictive lists" })).toBeVisible();

  // Masked: the embedded default key lacks the unmasked permission.
  await expect(page.getByTestId("masked-marker")).toBeVisible();
  await expect(page.getByTestId("masked-marker")).toContainText("Masked data");

  for (const name of ["Selfie", "Document (back)"]) {
    const image = page.getByRole("img", { name: new RegExp(`^${name.replace(/[()]/g, "\\$&")} of verification`) });
    await expect(image).toHaveAttribute("src", /^\/api\/media\//);
    await expect.poll(() => image.evaluate((element: HTMLImageElement) => element.complete && element.naturalWidth > 0)).toBe(true);
  }
  // Zoom and rotate with the keyboard (the selfie is in the face comparison; the back of the document here).
  const backBox = page.getByRole("group", { name: "Image controls for Document (back)" });
  await backBox.focus();
  await page.keyboard.press("+");
  await page.keyboard.press("r");
  await expect(page.getByText("Zoom 150 %, rotated 90°")).toBeVisible();

  const html = await page.content();
  const seen = await responses();
  expect(seen.some((response) => response.url.includes("/api/media/"))).toBe(true);
  for (const text of [html, ...seen.map((response) => `${response.url}\n${response.body}`)]) {
    expect(text).not.toContain(`${sandbox.url}/files`);
    expect(text).not.toContain("/files/");
    expect(text).not.toContain("signature=");
  }
});

test("an image token is refused once older than its time to live, and for another user", async ({ analystPage: page, adminPage }) => {
  const answer = (await (await page.request.get("/api/verifications?status=approved&per_page=1")).json()) as ListAnswer;
  const publicId = answer.items[0]!.publicId;
  const media = (await (await page.request.get(`/api/verifications/${publicId}/media`)).json()) as {
    items: Array<{ key: string; src?: string }>;
  };
  const src = media.items.find((item) => item.key === "selfie")!.src!;
  expect((await page.request.get(src, { headers: SAME_ORIGIN })).status()).toBe(200);
  expect((await adminPage.request.get(src, { headers: SAME_ORIGIN })).status()).toBe(403);

  // Age the token: the same claim, its expiry moved into the past, sealed with the server's secret.
  const secrets = JSON.parse(fs.readFileSync(path.resolve(process.env.E2E_DATA_DIR ?? ".test-data/e2e", "secrets.json"), "utf8")) as {
    mediaSeal: string;
  };
  const claim = await unsealData<Record<string, unknown>>(decodeURIComponent(src.slice("/api/media/".length)), {
    password: secrets.mediaSeal,
  });
  expect(claim.fileKey).toBe("selfie");
  const aged = await sealData({ ...claim, expiresAt: Date.now() - 1_000 }, { password: secrets.mediaSeal, ttl: 300 });
  const refused = await page.request.get(`/api/media/${encodeURIComponent(aged)}`, { headers: SAME_ORIGIN });
  expect(refused.status()).toBe(410);
  expect(refused.headers()["cache-control"]).toBe("no-store");
});

test("a missing or malformed id shows a plain not found", async ({ analystPage: page, sandboxLog }) => {
  await page.goto("/verifications/00000000-0000-4000-8000-000000000000");
  await expect(page.getByRole("heading", { name: "Verification not found" })).toBeVisible();
  await expect(page.getByText("There is no verification with this id.")).toBeVisible();
  await sandboxLog.mark();
  await page.goto("/verifications/..%2F..%2Ffiles");
  await expect(page.getByRole("heading", { name: /not found/i })).toBeVisible();
  // Whatever else runs meanwhile, no call ever left with a path built from that id.
  expect((await sandboxLog.requests()).filter((request) => /\.\.|%2F|validations-persons\/files/i.test(request.path))).toEqual([]);
});

test("creating a verification shows its public id, linked", async ({ analystPage: page }) => {
  await page.goto("/verifications");
  await page.getByRole("button", { name: "New verification" }).click();
  const dialog = page.getByRole("dialog", { name: "Create a verification" });
  await dialog.getByLabel("Your reference id").fill("e2e-case-1");
  await dialog.getByLabel("Document number").fill("529.982.247-24");
  await dialog.getByRole("button", { name: "Create verification" }).click();
  await expect(dialog.getByText("This is not a valid CPF (check the digits).")).toBeVisible();

  await dialog.getByLabel("Document number").fill("529.982.247-25");
  const posted = page.waitForRequest((request) => request.method() === "POST" && request.url().endsWith("/api/verifications"));
  await dialog.getByRole("button", { name: "Create verification" }).click();
  const body = (await posted).postDataJSON() as Record<string, unknown>;
  expect(Object.keys(body).sort()).toEqual(["document", "refId", "schemaVersion"]);
  // The schema version every creation example of the provider sends (legitimuz-examples pocs/express-backend).
  expect(body.schemaVersion).toBe("1.0");
  await expect(dialog.getByText("Verification created")).toBeVisible();
  const link = dialog.getByRole("link", { name: "Open the verification" });
  await link.click();
  await expect(page).toHaveURL(/\/verifications\/[0-9a-f-]{36}$/);
  await expect(page.getByRole("heading", { level: 1 })).toBeVisible();
});

test("image tokens are fetched again before they expire while the page stays open", async ({ analystPage: page }) => {
  const answer = (await (await page.request.get("/api/verifications?status=approved&per_page=1")).json()) as ListAnswer;
  const publicId = answer.items[0]!.publicId;
  await page.clock.install();
  const mediaAnswers: Array<{ items: Array<{ key: string; src?: string }> }> = [];
  page.on("response", (response) => {
    if (response.url().endsWith(`/api/verifications/${publicId}/media`)) void response.json().then((body) => mediaAnswers.push(body));
  });
  await page.goto(`/verifications/${publicId}`);
  const selfie = page.getByRole("img", { name: /^Selfie of verification/ });
  // The first tokens came with the page (its HTML holds the pictures): the browser asked for none.
  const first = await selfie.getAttribute("src");
  expect(first).toMatch(/^\/api\/media\//);
  await expect.poll(() => selfie.evaluate((element: HTMLImageElement) => element.complete && element.naturalWidth > 0)).toBe(true);
  expect(mediaAnswers).toHaveLength(0);

  // Four and a half minutes later (tokens live under five), fresh tokens have arrived by themselves.
  await page.clock.fastForward("04:30");
  await expect.poll(() => mediaAnswers.length).toBe(1);
  const [second] = mediaAnswers;
  expect(second!.items.find((item) => item.key === "selfie")!.src).not.toBe(first);
  // The picture on screen stays as it is (a new token would only download it again).
  await expect.poll(() => selfie.evaluate((element: HTMLImageElement) => element.complete && element.naturalWidth > 0)).toBe(true);
  // A freshly issued token opens.
  expect((await page.request.get(second!.items.find((item) => item.key === "selfie")!.src!, { headers: SAME_ORIGIN })).status()).toBe(200);
});

test("the document's portrait crop is drawn once, shown face beside face, kept for the next reviewer, and set aside on demand", async ({
  analystPage: page,
  adminPage,
}) => {
  const answer = (await (await page.request.get("/api/verifications?status=review&per_page=50")).json()) as {
    items: Array<{ publicId: string; steps: Array<{ name: string; state: string }> }>;
  };
  // One no other test crops: the last review with a selfie.
  const target = answer.items.filter((item) => item.steps.some((step) => step.name === "liveness" && step.state === "approved")).at(-1)!;
  await page.goto(`/verifications/${encodeURIComponent(target.publicId)}`);
  const faces = page.getByRole("region", { name: "Face comparison" });
  const documentImage = faces.getByRole("img", { name: /^Document \(front\) of verification/ });
  await expect.poll(() => documentImage.evaluate((element: HTMLImageElement) => element.complete && element.naturalWidth > 0)).toBe(true);
  const cropLayer = faces.locator("[data-face-frame=document_front] [data-crop-scale]");
  await expect(cropLayer).toHaveCount(0);

  // Drawn with the pointer over the document's frame, then nudged with the keyboard.
  await faces.getByRole("button", { name: "Crop to the portrait" }).click();
  const frame = faces.locator("[data-face-frame=document_front] [data-face-viewport]");
  const box = (await frame.boundingBox())!;
  await page.mouse.move(box.x + box.width * 0.1, box.y + box.height * 0.35);
  await page.mouse.down();
  await page.mouse.move(box.x + box.width * 0.4, box.y + box.height * 0.65, { steps: 5 });
  await page.mouse.up();
  const cropBox = faces.getByRole("group", { name: "Portrait crop on the document" });
  const drawn = await cropBox.getAttribute("data-crop-box");
  await cropBox.focus();
  await page.keyboard.press("ArrowRight");
  await expect(cropBox).not.toHaveAttribute("data-crop-box", drawn!);
  await faces.getByRole("button", { name: "Save crop" }).click();
  await expect(faces.getByText("Crop saved.")).toBeVisible();

  // Shown filling the frame (scaled up), under the shared zoom; another reviewer sees the same crop.
  await expect(cropLayer).toHaveAttribute("data-crop-scale", /^(?!1\.00)\d+\.\d\d$/);
  await expect(faces.getByText("Document (portrait crop)")).toBeVisible();
  await adminPage.goto(`/verifications/${encodeURIComponent(target.publicId)}`);
  await expect(adminPage.locator("[data-face-frame=document_front] [data-crop-scale]")).toHaveCount(1);

  // Set aside without clearing, then cleared for everyone.
  await faces.getByRole("button", { name: "Show the whole document" }).click();
  await expect(cropLayer).toHaveCount(0);
  await faces.getByRole("button", { name: "Show the portrait" }).click();
  await expect(cropLayer).toHaveCount(1);
  await faces.getByRole("button", { name: "Clear crop" }).click();
  await expect(cropLayer).toHaveCount(0);
  await adminPage.reload();
  await expect(adminPage.getByRole("button", { name: "Crop to the portrait" })).toBeVisible();
});
