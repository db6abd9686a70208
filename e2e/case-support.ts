import type { APIRequestContext } from "@playwright/test";

import { createVerification, expect, moveUpstream } from "./fixtures";

/*
 * Case work's browser-test helpers: each test makes its own verification through the dashboard and moves it
 * with the sandbox's control route (which signs and sends the service's webhooks to the dashboard). Writes
 * through Playwright's request context carry the dashboard's own Origin, as the route kit requires.
 */

// The shared helpers are the fixtures' (one definition); case work adds a case in review and its read-back.
export { createVerification, moveUpstream, WRITE } from "./fixtures";

/** Creates a verification through the dashboard and puts it in review upstream; resolves once its case is open. */
export async function reviewCase(request: APIRequestContext): Promise<{ publicId: string; refId: string; cpf: string }> {
  const made = await createVerification(request, "e2e-case");
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
