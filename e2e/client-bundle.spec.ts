import fs from "node:fs";
import path from "node:path";

import type { Page, Response } from "@playwright/test";

import { expect, serverSecrets, test } from "./fixtures";

/*
 * The production build the browser tests run against must not carry a server secret in anything the
 * browser can download. The embedded default's secrets are the sandbox's demo credentials and the
 * generated session/sealing secrets; a secret that reaches a client component lands in these files.
 */

const distDir = path.resolve(process.env.NEXT_DIST_DIR ?? ".next");

function filesUnder(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    return entry.isDirectory() ? filesUnder(full) : [full];
  });
}

test("no server secret is in the client bundle or the HTML of a page", async ({ adminPage }) => {
  const secrets = serverSecrets();

  const clientFiles = filesUnder(path.join(distDir, "static"));
  expect(clientFiles.length, "the build has client files").toBeGreaterThan(10);
  const hits: string[] = [];
  for (const file of clientFiles) {
    const text = fs.readFileSync(file, "latin1");
    for (const [name, value] of Object.entries(secrets)) if (text.includes(value)) hits.push(`${name} in ${path.relative(distDir, file)}`);
  }
  // Signed in as admin, so each page renders its real content (and any prop handed to a client component).
  for (const page of ["/sign-in", "/verifications", "/lookups/cpf", "/kyc", "/admin"]) {
    const response = await adminPage.request.get(page);
    expect(response.status(), page).toBe(200);
    const html = await response.text();
    for (const [name, value] of Object.entries(secrets)) if (html.includes(value)) hits.push(`${name} in the HTML of ${page}`);
  }
  expect(hits).toEqual([]);
});

/*
 * No validation library in the browser: forms and URL state check their input with plain rule functions
 * (each feature's rules.ts, lib/shared/, lib/upstream/model/verification-query.ts, lib/audit-trail/filters.ts), and only the server wraps
 * them in zod. zod's error class names itself "ZodError" ("$ZodError" in its core) and its issue codes
 * include "invalid_format": strings no code of this app writes, present in any build of zod, classic or mini.
 */
const ZOD_MARKERS = ["ZodError", "invalid_format"];

const zodIn = (text: string) => ZOD_MARKERS.filter((marker) => text.includes(marker));

/** Every script the page loads while it opens (and settles), by URL with its text. */
async function scriptsOf(page: Page, path: string): Promise<Map<string, string>> {
  const scripts = new Map<string, string>();
  const pending: Array<Promise<void>> = [];
  const onResponse = (response: Response) => {
    if (response.request().resourceType() !== "script") return;
    pending.push(
      response.text().then(
        (text) => void scripts.set(response.url(), text),
        () => undefined,
      ),
    );
  };
  page.on("response", onResponse);
  try {
    const response = await page.goto(path);
    expect(response?.status(), path).toBe(200);
    await page.waitForLoadState("networkidle");
    await Promise.all(pending);
  } finally {
    page.off("response", onResponse);
  }
  return scripts;
}

test("no script served to any page carries zod, and no client chunk of the build does", async ({ browser, adminPage }) => {
  const hits: string[] = [];
  const check = (where: string, scripts: Map<string, string>) => {
    expect(scripts.size, `${where} loads scripts`).toBeGreaterThan(0);
    for (const [url, text] of scripts) for (const marker of zodIn(text)) hits.push(`${marker} in ${new URL(url).pathname} (${where})`);
  };

  const signedOut = await browser.newContext();
  try {
    check("/sign-in", await scriptsOf(await signedOut.newPage(), "/sign-in"));
  } finally {
    await signedOut.close();
  }
  // Signed in as admin: every page of the navigation, and a verification's detail.
  const pages = ["/", "/verifications", "/cases", "/lookups/cpf", "/kyc", "/admin/integrations", "/admin/staff", "/admin/audit"];
  for (const route of pages) check(route, await scriptsOf(adminPage, route));
  await adminPage.goto("/verifications");
  const detail = await adminPage.getByRole("main").locator('a[href^="/verifications/"]').first().getAttribute("href");
  expect(detail, "the list links a verification").toBeTruthy();
  check("a verification", await scriptsOf(adminPage, detail!));

  // Chunks loaded later (a dialog's body, a route prefetched on hover) are in the build's static folder.
  const chunks = filesUnder(path.join(distDir, "static")).filter((file) => file.endsWith(".js"));
  expect(chunks.length, "the build has client chunks").toBeGreaterThan(10);
  for (const file of chunks)
    for (const marker of zodIn(fs.readFileSync(file, "utf8"))) hits.push(`${marker} in ${path.relative(distDir, file)}`);
  expect(hits).toEqual([]);
});
