import fs from "node:fs";
import path from "node:path";

import { test as base, expect, type BrowserContext, type Page } from "@playwright/test";

import { dataDir, sandboxURL } from "../playwright.config";

/*
 * Typed fixtures: pages already signed in as the demo analyst or admin. Signing in goes through
 * next-auth's own credentials endpoint (CSRF token, then the callback), the same requests the sign-in
 * form makes, so specs that are not about sign-in don't depend on its layout. e2e/auth.spec.ts drives
 * the form itself.
 */

export const DEMO = {
  analyst: { email: "analyst@sandbox.local", password: "sandbox-analyst" },
  admin: { email: "admin@sandbox.local", password: "sandbox-admin" },
} as const;

export async function signInContext(context: BrowserContext, who: { email: string; password: string }): Promise<void> {
  const csrf = await context.request.get("/api/auth/csrf");
  expect(csrf.ok()).toBe(true);
  const { csrfToken } = (await csrf.json()) as { csrfToken: string };
  const response = await context.request.post("/api/auth/callback/credentials", {
    form: { csrfToken, email: who.email, password: who.password, json: "true" },
    maxRedirects: 0,
  });
  expect(response.status(), "credentials sign-in should redirect").toBeLessThan(400);
  const cookies = await context.cookies();
  expect(
    cookies.some((cookie) => cookie.name.includes("session-token")),
    "a session cookie is set",
  ).toBe(true);
}

/** The secrets the dashboard generated into its data folder (the embedded default), by name. */
export function generatedSecrets(): Record<string, string> {
  return JSON.parse(fs.readFileSync(path.join(dataDir, "secrets.json"), "utf8")) as Record<string, string>;
}

/** Every server secret of the embedded default, named: the sandbox's demo credentials and the generated ones. */
export function serverSecrets(): Record<string, string> {
  return {
    "core API key": "sbx_core_view_media",
    "partner password": "sandbox-partner-password",
    "integration token": "0b9a4c1e-5d2f-4e8a-9c71-3f6d2b8e4a10",
    ...Object.fromEntries(Object.entries(generatedSecrets()).map(([name, value]) => [`generated ${name} secret`, value])),
  };
}

/** The sandbox's control routes (request log, SMS outbox, faults) for the browser tests. */
export const sandbox = {
  url: sandboxURL,
  async requests(): Promise<Array<{ method: string; path: string; query: string[] }>> {
    const response = await fetch(`${sandboxURL}/sandbox/requests`);
    return ((await response.json()) as { requests: Array<{ method: string; path: string; query: string[] }> }).requests;
  },
  async clearRequests(): Promise<void> {
    await fetch(`${sandboxURL}/sandbox/requests`, { method: "DELETE" });
  },
  async smsCode(phone: string): Promise<string | undefined> {
    const response = await fetch(`${sandboxURL}/sandbox/sms/outbox?phone=${encodeURIComponent(phone)}`);
    return response.ok ? ((await response.json()) as { code: string }).code : undefined;
  },
};

export const test = base.extend<{ analystPage: Page; adminPage: Page }>({
  analystPage: async ({ browser }, use) => {
    const context = await browser.newContext();
    await signInContext(context, DEMO.analyst);
    await use(await context.newPage());
    await context.close();
  },
  adminPage: async ({ browser }, use) => {
    const context = await browser.newContext();
    await signInContext(context, DEMO.admin);
    await use(await context.newPage());
    await context.close();
  },
});

export { expect };
