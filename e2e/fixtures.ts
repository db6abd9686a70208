import { randomBytes } from "node:crypto";
import fs from "node:fs";
import path from "node:path";

import { test as base, expect, type APIRequestContext, type BrowserContext, type Page } from "@playwright/test";

import { baseURL, dataDir, sandboxURL } from "@/playwright.config";
import { personFlags } from "@/sandbox/fixtures/people";

/*
 * Typed fixtures. The browser tests run in two workers against one dashboard, one database and one sandbox,
 * so each worker keeps to its own:
 *
 * - staff accounts: `staff` holds an admin and an analyst made for this worker (through the admin API, their
 *   one-time passwords replaced), and `analystPage` / `adminPage` are pages signed in as them. The demo
 *   accounts are left to the tests about them;
 * - client address: every request of a test carries X-Forwarded-For with this worker's own address, which the
 *   dashboard believes because the e2e server trusts the loopback proxy (TRUSTED_PROXIES in
 *   playwright.config.ts). Sign-in throttling, lockouts and the audit trail's `ip` are then per worker;
 * - view of the sandbox's request log: `sandboxLog` reads only what the sandbox received since the test began
 *   (a cursor, `GET /sandbox/requests?after=`), and nothing clears the log under the other worker.
 *
 * Signing in goes through next-auth's own credentials endpoint (CSRF token, then the callback), the same
 * requests the sign-in form makes, so specs that are not about sign-in don't depend on its layout.
 * e2e/auth.spec.ts drives the form itself.
 */

export const DEMO = {
  analyst: { email: "analyst@sandbox.local", password: "sandbox-analyst" },
  admin: { email: "admin@sandbox.local", password: "sandbox-admin" },
} as const;

export interface Account {
  email: string;
  password: string;
}

/** Writes through a request context need the dashboard's own Origin (the route kit refuses others). */
export const WRITE = { origin: baseURL } as const;

/**
 * GETs with side effects (exports, the audit log, media images) need what the browser sends from the dashboard's
 * own pages; a request context sends no Sec-Fetch-Site of its own.
 */
export const SAME_ORIGIN = { "sec-fetch-site": "same-origin" } as const;

/** This worker's client address: TEST-NET-2 (198.51.100.0/24) is never a real client, one address a worker. */
export function workerAddress(workerIndex: number): string {
  return `198.51.100.${(workerIndex % 250) + 1}`;
}

async function signInRequest(request: APIRequestContext, who: Account): Promise<void> {
  const csrf = await request.get("/api/auth/csrf");
  expect(csrf.ok()).toBe(true);
  const { csrfToken } = (await csrf.json()) as { csrfToken: string };
  const response = await request.post("/api/auth/callback/credentials", {
    form: { csrfToken, email: who.email, password: who.password, json: "true" },
    maxRedirects: 0,
  });
  expect(response.status(), `credentials sign-in of ${who.email} should redirect`).toBeLessThan(400);
}

export async function signInContext(context: BrowserContext, who: Account): Promise<void> {
  await signInRequest(context.request, who);
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

/** A random CPF with valid check digits (formatted), so each test's person is its own. */
export function randomCpf(): string {
  for (;;) {
    const cpf = anyValidCpf();
    // About one CPF in twenty is a PEP or on a restrictive list at the sandbox (sandbox/fixtures/people.ts), and a
    // red flag opens a case at creation: a test that makes its own verification gets one without a case, so it
    // decides when the case opens (moving it to review) instead of the draw.
    const flags = personFlags(cpf.replace(/\D/g, ""));
    if (!flags.pep && !flags.restricted) return cpf;
  }
}

function anyValidCpf(): string {
  const digits = Array.from({ length: 9 }, () => Math.floor(Math.random() * 10));
  if (new Set(digits).size === 1) digits[0] = (digits[0]! + 1) % 10;
  const s = withCheckDigits(digits);
  return `${s.slice(0, 3)}.${s.slice(3, 6)}.${s.slice(6, 9)}-${s.slice(9)}`;
}

/** A CPF's eleven digits from its first nine, the two check digits computed. */
export function withCheckDigits(first: readonly number[]): string {
  const digits = [...first];
  for (const length of [9, 10]) {
    const sum = digits.slice(0, length).reduce((total, digit, index) => total + digit * (length + 1 - index), 0);
    digits.push(((sum * 10) % 11) % 10);
  }
  return digits.join("");
}

/** Moves a verification upstream through the sandbox's control route, which sends the service's webhooks. */
export async function moveUpstream(publicId: string, status: "approved" | "reproved" | "review"): Promise<void> {
  const response = await fetch(`${sandboxURL}/sandbox/verifications/${encodeURIComponent(publicId)}/status`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ status }),
  });
  expect(response.status).toBe(200);
}

/** Moves a verification the test created back in time at the sandbox (its creation `days` ago). */
export async function backdateUpstream(publicId: string, days: number): Promise<void> {
  const response = await fetch(`${sandboxURL}/sandbox/verifications/${encodeURIComponent(publicId)}/created-at`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ created_at: new Date(Date.now() - days * 86_400_000).toISOString() }),
  });
  expect(response.status).toBe(200);
}

/** Creates a verification of the test's own through the dashboard; answers its public id. */
export async function createVerification(
  request: APIRequestContext,
  refPrefix = "e2e",
): Promise<{ publicId: string; refId: string; cpf: string }> {
  const refId = `${refPrefix}-${Date.now()}-${Math.random().toString(36).slice(2, 8)}`;
  const cpf = randomCpf();
  const created = await request.post("/api/verifications", {
    headers: WRITE,
    data: { schemaVersion: "1", refId, document: { type: "cpf", number: cpf } },
  });
  expect(created.status()).toBe(201);
  return { publicId: ((await created.json()) as { created: { publicId: string } }).created.publicId, refId, cpf };
}

export interface SandboxRequest {
  seq: number;
  method: string;
  path: string;
  query: string[];
}

/** The sandbox's control routes (SMS outbox) for the browser tests; its request log is `sandboxLog`. */
export const sandbox = {
  url: sandboxURL,
  async smsCode(phone: string): Promise<string | undefined> {
    const response = await fetch(`${sandboxURL}/sandbox/sms/outbox?phone=${encodeURIComponent(phone)}`);
    return response.ok ? ((await response.json()) as { code: string }).code : undefined;
  },
};

/** The requests the sandbox received after `cursor`; refuses to answer when some were already dropped. */
async function sandboxRequestsAfter(cursor: number): Promise<{ requests: SandboxRequest[]; last: number }> {
  const response = await fetch(`${sandboxURL}/sandbox/requests?after=${cursor}`);
  expect(response.ok).toBe(true);
  const answer = (await response.json()) as { requests: SandboxRequest[]; last: number; truncated: boolean };
  expect(answer.truncated, "the sandbox dropped log entries this test needs").toBe(false);
  return answer;
}

export interface SandboxLog {
  /** Everything the sandbox received since the test began (or since `mark()`), from any caller. */
  requests(): Promise<SandboxRequest[]>;
  /** Moves the start of `requests()` to now. */
  mark(): Promise<void>;
}

/**
 * Sensitive actions (invites, role changes, integration keys…) need a step-up within STEP_UP_SECONDS (5 s in
 * the browser suite): a member without any factor (MFA_REQUIRED=off) steps up with the password. Through a
 * request context: send the write, and when it is refused with `step_up_required`, step up and send it again.
 */
export async function withStepUp(
  request: APIRequestContext,
  password: string,
  write: () => ReturnType<APIRequestContext["post"]>,
): ReturnType<APIRequestContext["post"]> {
  const response = await write();
  if (response.status() !== 401) return response;
  const body = (await response.json().catch(() => ({}))) as { error?: { code?: string } };
  if (body.error?.code !== "step_up_required") return response;
  const stepUp = await request.post("/api/account/step-up", { headers: WRITE, data: { password } });
  expect(stepUp.status(), "a step-up with the password").toBe(200);
  return write();
}

/** The step-up dialog (components/auth/step-up-dialog.tsx), in either language. */
export const stepUpDialog = (page: Page) => page.getByRole("dialog", { name: /^(Confirm it is you|Confirme que é você)$/ });

/**
 * In the browser: whenever the step-up dialog appears on `page` (before any later action or assertion), it is
 * answered with `password`, as a member without factors does. The page's own form stays as typed underneath.
 */
export async function answerStepUp(page: Page, password: string): Promise<void> {
  await page.addLocatorHandler(stepUpDialog(page), async (dialog) => {
    await dialog.getByLabel(/^(Password|Senha)$/).fill(password);
    await dialog.getByRole("button", { name: /^(Confirm|Confirmar)$/ }).click();
  });
}

/** Makes one staff account through the admin API and replaces its one-time password. */
async function makeAccount(
  admin: APIRequestContext,
  newContext: () => Promise<APIRequestContext>,
  adminPassword: string,
  email: string,
  name: string,
  role: string,
) {
  const invited = await withStepUp(admin, adminPassword, () => admin.post("/api/staff", { headers: WRITE, data: { email, name, role } }));
  expect(invited.status(), `inviting ${email}`).toBe(201);
  const { oneTimePassword } = (await invited.json()) as { oneTimePassword: string };
  const password = `e2e-${randomBytes(12).toString("hex")}`;
  const own = await newContext();
  try {
    await signInRequest(own, { email, password: oneTimePassword });
    const changed = await own.post("/api/account/password", {
      headers: WRITE,
      data: { currentPassword: oneTimePassword, newPassword: password },
    });
    expect(changed.status(), `replacing the one-time password of ${email}`).toBe(204);
  } finally {
    await own.dispose();
  }
  return { email, password };
}

export const test = base.extend<
  { analystPage: Page; adminPage: Page; sandboxLog: SandboxLog },
  { clientAddress: string; staff: { admin: Account; analyst: Account } }
>({
  clientAddress: [async ({}, use, workerInfo) => use(workerAddress(workerInfo.workerIndex)), { scope: "worker" }],

  // Every context and request context a test opens (browser.newContext() included) sends this worker's address.
  extraHTTPHeaders: async ({ clientAddress }, use) => use({ "x-forwarded-for": clientAddress }),

  staff: [
    async ({ playwright, clientAddress }, use, workerInfo) => {
      const newContext = () => playwright.request.newContext({ baseURL, extraHTTPHeaders: { "x-forwarded-for": clientAddress } });
      const admin = await newContext();
      try {
        await signInRequest(admin, DEMO.admin);
        const tag = `w${workerInfo.workerIndex}-${Date.now().toString(36)}`;
        const worker = workerInfo.workerIndex + 1;
        const account = (role: "admin" | "analyst", title: string) =>
          makeAccount(admin, newContext, DEMO.admin.password, `e2e-${tag}-${role}@example.com`, `Worker ${worker} ${title}`, role);
        await use({ admin: await account("admin", "Admin"), analyst: await account("analyst", "Analyst") });
      } finally {
        await admin.dispose();
      }
    },
    { scope: "worker" },
  ],

  analystPage: async ({ browser, staff }, use) => {
    const context = await browser.newContext();
    await signInContext(context, staff.analyst);
    await use(await context.newPage());
    await context.close();
  },
  adminPage: async ({ browser, staff }, use) => {
    const context = await browser.newContext();
    await signInContext(context, staff.admin);
    await use(await context.newPage());
    await context.close();
  },

  sandboxLog: async ({}, use) => {
    let cursor = (await sandboxRequestsAfter(Number.MAX_SAFE_INTEGER)).last;
    await use({
      requests: async () => (await sandboxRequestsAfter(cursor)).requests,
      mark: async () => {
        cursor = (await sandboxRequestsAfter(Number.MAX_SAFE_INTEGER)).last;
      },
    });
  },
});

export { expect };
