import type { Page, Response } from "@playwright/test";

import { isValidCpf } from "@/lib/shared/cpf";
import { sandboxURL } from "@/playwright.config";
import { JWT_SHAPE } from "@/test/jwt-shape";

import { expect, serverSecrets, test } from "./fixtures";

/*
 * The leak guard's browser half: what the browser actually receives from the production build. It walks
 * the signed-in pages (server-rendered first views with their hydrated data, the verification detail
 * with its images, the admin pages) and records every response (documents, RSC payloads, API answers,
 * image headers), then searches them for the server's credentials and secrets, anything shaped like a
 * bearer token or a signed file URL, the sandbox's file addresses, and full CPFs (the sandbox's key
 * masks them, so only the lookup and KYC pages, where the operator types one, may show one).
 *
 * The route-handler half, which also searches the database and the server's output of the same run, is
 * test/leak-guard/leak-guard.test.ts.
 */

const TEXTUAL = /^(application\/(json|javascript|x-component)|text\/)/i;

interface Seen {
  url: string;
  text: string;
}

/**
 * Records every answer the page receives until the returned `stop` is awaited: it detaches the listener first, then
 * waits for the answers already being read. A listener left attached read answers arriving after the test (a poll,
 * the live stream's reconnection) from a closed page, and the rejection failed whichever test ran next in the worker.
 */
function record(page: Page, seen: Seen[]): () => Promise<void> {
  const pending: Array<Promise<void>> = [];
  const listener = (response: Response) => {
    pending.push(
      (async () => {
        const headers = Object.entries(await response.allHeaders())
          .map(([name, value]) => `${name}: ${value}`)
          .join("\n");
        let body = "";
        const type = response.headers()["content-type"] ?? "";
        // The live stream never ends, so its body cannot be read whole here; its frames carry topics and ids only
        // (lib/db/live.ts, lib/api/live-stream.test.ts).
        if (TEXTUAL.test(type) && !type.includes("text/event-stream")) body = await response.text().catch(() => "");
        seen.push({ url: response.url(), text: `${response.status()} ${response.url()}\n${headers}\n\n${body}` });
      })(),
    );
  };
  page.on("response", listener);
  return async () => {
    page.off("response", listener);
    await Promise.all(pending);
  };
}

test("nothing the browser receives while using the dashboard holds a secret, a signed URL or an unmasked CPF", async ({
  adminPage: page,
}) => {
  const seen: Seen[] = [];
  const stop = record(page, seen);

  await page.goto("/verifications");
  const firstRow = page.getByRole("main").locator('a[href^="/verifications/"]').first();
  await expect(firstRow).toBeVisible();
  await firstRow.click();
  await expect(page).toHaveURL(/\/verifications\/[^/]+$/);
  // The detail's images come through /api/media/<sealed token>.
  await page.waitForResponse((response) => response.url().includes("/api/media/"), { timeout: 20_000 }).catch(() => undefined);
  await page.waitForLoadState("networkidle");
  for (const path of ["/admin/audit", "/admin/integrations", "/admin/staff", "/lookups/cpf", "/kyc"]) {
    await page.goto(path);
    await page.waitForLoadState("networkidle");
  }
  await stop();
  expect(seen.length).toBeGreaterThan(10);

  const secrets = serverSecrets();
  const patterns: Record<string, RegExp> = {
    "bearer token (JWT)": JWT_SHAPE,
    "bearer header": /\bBearer\s+[A-Za-z0-9._~+/=-]{16,}/i,
    "signed file URL": /[?&]signature=[0-9a-f]{16,}/i,
    "sandbox file address": new RegExp(`${sandboxURL.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}/files/`),
  };

  const hits: string[] = [];
  for (const { url, text } of seen) {
    const where = new URL(url).pathname;
    for (const [name, value] of Object.entries(secrets)) if (text.includes(value)) hits.push(`${name} in the response to ${where}`);
    for (const [name, pattern] of Object.entries(patterns)) if (pattern.test(text)) hits.push(`${name} in the response to ${where}`);
    // Only the lookup and KYC pages take a CPF from the operator; everything else shows them masked.
    if (!/^\/(lookups|kyc|api\/lookups|api\/kyc)/.test(where)) {
      for (const match of text.matchAll(/(?<![\d.])(\d{3})\.(\d{3})\.(\d{3})-(\d{2})(?![\d-])/g)) {
        if (isValidCpf(match.slice(1).join(""))) hits.push(`a full CPF (${match[1]}.***) in the response to ${where}`);
      }
    }
  }
  expect(hits).toEqual([]);
});
