import type { APIRequestContext } from "@playwright/test";

import { baseURL } from "../playwright.config";
import { expect, sandbox } from "./fixtures";

/*
 * Case work's browser-test helpers: each test makes its own verification through the dashboard and moves it
 * with the sandbox's control route (which signs and sends the service's webhooks to the dashboard). Writes
 * through Playwright's request context carry the dashboard's own Origin, as the route kit requires.
 */

export const WRITE = { origin: baseURL };

/** A random CPF with valid check digits, so each test's person is its own. */
export function randomCpf(): string {
  const digits = Array.from({ length: 9 }, () => Math.floor(Math.random() * 10));
  if (new Set(digits).size === 1) digits[0] = (digits[0]! + 1) % 10;
  for (const length of [9, 10]) {
    const sum = digits.slice(0, length).reduce((total, digit, index) => total + digit * (length + 1 - index), 0);
    digits.push(((sum * 10) % 11) % 10);
  }
  const s = digits.join("");
  return `${s.slice(0, 3)}.${s.slice(3, 6)}.${s.slice(6, 9)}-${s.slice(9)}`;
}

export async function moveUpstream(publicId: string, status: "approved" | "reproved" | "review") {
  const response = await fetch(`${sandbox.url}/sandbox/verifications/${encodeURIComponent(publicId)}/status`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ status }),
  });
  expect(response.status).toBe(200);
}

/** Creates a verification through the dashboard (not yet opened by the person: every step pending). */
export async function createVerification(request: APIRequestContext): Promise<{ publicId: string; refId: string; cpf: string }> {
  const refId = `e2e-case-${Date.now()}-${Math.random().toString(36).slice(2, 8)}`;
  const cpf = randomCpf();
  const created = await request.post("/api/verifications", {
    headers: WRITE,
    data: { schemaVersion: "1", refId, document: { type: "cpf", number: cpf } },
  });
  expect(created.status()).toBe(201);
  const { publicId } = ((await created.json()) as { created: { publicId: string } }).created;
  return { publicId, refId, cpf };
}

/** Creates a verification through the dashboard and puts it in review upstream; resolves once its case is open. */
export async function reviewCase(request: APIRequestContext): Promise<{ publicId: string; refId: string; cpf: string }> {
  const made = await createVerification(request);
  await moveUpstream(made.publicId, "review");
  await expect
    .poll(async () => (await request.get(`/api/cases/${encodeURIComponent(made.publicId)}`)).status(), { timeout: 20_000 })
    .toBe(200);
  return made;
}

export async function caseOf(request: APIRequestContext, publicId: string) {
  const response = await request.get(`/api/cases/${encodeURIComponent(publicId)}`);
  return ((await response.json()) as { case: { status: string; disagreement: boolean; outcomeState: string | null } }).case;
}
