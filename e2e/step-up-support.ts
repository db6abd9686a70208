import { randomBytes } from "node:crypto";

import type { APIRequestContext, Browser, Page } from "@playwright/test";
import { Secret, TOTP } from "otpauth";

import { settledAxe } from "./axe";
import { expect, signInContext, withStepUp, WRITE, type Account } from "./fixtures";

/*
 * Helpers of the step-up and second-factor browser tests (e2e/step-up.spec.ts, e2e/mfa.spec.ts, and the integration
 * key's in e2e/partners.spec.ts, the one file that creates keys): members of a test's own, authenticator codes
 * computed as an app would.
 */

export const PHONE = { width: 390, height: 844 };

/** A member of this test's own: invited by the worker's admin, the one-time password replaced. */
export async function newMember(
  request: APIRequestContext,
  browser: Browser,
  admin: Account,
  role: string,
  label: string,
): Promise<Account & { name: string }> {
  const email = `e2e-member-${label}-${Date.now()}-${randomBytes(3).toString("hex")}@example.com`;
  const name = `Member ${label} ${randomBytes(2).toString("hex")}`;
  const invited = await withStepUp(request, admin.password, () =>
    request.post("/api/staff", { headers: WRITE, data: { email, name, role } }),
  );
  expect(invited.status(), `inviting ${email}`).toBe(201);
  const { oneTimePassword } = (await invited.json()) as { oneTimePassword: string };
  const password = `e2e-${randomBytes(12).toString("hex")}`;
  const context = await browser.newContext();
  try {
    await signInContext(context, { email, password: oneTimePassword });
    const changed = await context.request.post("/api/account/password", {
      headers: WRITE,
      data: { currentPassword: oneTimePassword, newPassword: password },
    });
    expect(changed.status(), `replacing the one-time password of ${email}`).toBe(204);
    // That session is not needed any more: end it, so the member's live sessions (and session list) are the test's own.
    const signedOut = await context.request.post("/api/auth/sign-out", { headers: { ...WRITE, accept: "application/json" } });
    expect(signedOut.status()).toBe(200);
  } finally {
    await context.close();
  }
  return { email, password, name };
}

/** RFC 6238 as an authenticator app computes it (SHA-1, 6 digits, 30 s). */
export const totpOf = (secret: string) => new TOTP({ secret: Secret.fromBase32(secret), algorithm: "SHA1", digits: 6, period: 30 });

/** The app's code in a time step later than `after` (a code is accepted once): waits for the next step when needed. */
export async function codeAfter(totp: TOTP, after: number): Promise<{ code: string; counter: number }> {
  while (totp.counter() <= after) await new Promise((resolve) => setTimeout(resolve, TOTP.remaining({ period: 30 }) + 200));
  return { code: totp.generate(), counter: totp.counter() };
}

/** Six digits that are no code of the app around now. */
export function wrongCode(totp: TOTP): string {
  const near = new Set([-2, -1, 0, 1, 2].map((step) => totp.generate({ timestamp: Date.now() + step * 30_000 })));
  for (let candidate = 123456; ; candidate = (candidate + 111111) % 1_000_000) {
    const code = String(candidate).padStart(6, "0");
    if (!near.has(code)) return code;
  }
}

export async function expectNoViolations(page: Page, where: string) {
  const result = await (await settledAxe(page)).analyze();
  const summary = result.violations.map(
    (violation) => `${violation.id}: ${violation.nodes.map((node) => node.target.join(" ")).join("; ")}`,
  );
  expect(summary, `axe on ${where}`).toEqual([]);
}

export const fitsWidth = (page: Page) => page.evaluate(() => document.documentElement.scrollWidth <= document.documentElement.clientWidth);
