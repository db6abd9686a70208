import type { APIRequestContext } from "@playwright/test";

import { sandboxURL } from "@/playwright.config";
import { personFromCpf, type Person } from "@/sandbox/fixtures/people";

import { createVerification, expect, moveUpstream, withCheckDigits, WRITE } from "./fixtures";

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
  await waitForOpenCase(request, made.publicId);
  return made;
}

/**
 * Waits until the verification's case is open. GET /api/cases/{id} answers 200 with `case: null` while there is none
 * (a verification needs no case), so its status alone says nothing: the case's own does.
 */
export async function waitForOpenCase(request: APIRequestContext, publicId: string): Promise<void> {
  await expect
    .poll(
      async () => {
        const answer = await request.get(`/api/cases/${encodeURIComponent(publicId)}`);
        return answer.ok() ? ((await answer.json()) as { case: { status: string } | null }).case?.status : answer.status();
      },
      { timeout: 20_000 },
    )
    .toBe("open");
}

export async function caseOf(request: APIRequestContext, publicId: string) {
  const response = await request.get(`/api/cases/${encodeURIComponent(publicId)}`);
  return ((await response.json()) as { case: { status: string; disagreement: boolean; outcomeState: string | null } }).case;
}

/** A valid CPF, searched from `start`, whose person at the sandbox is what `wanted` asks (a PEP, on a list…). */
export function cpfOfPerson(wanted: (person: Person) => boolean, start = 100_000_000): string {
  for (let n = start; ; n += 7919) {
    const cpf = withCheckDigits(
      String(n % 1_000_000_000)
        .padStart(9, "0")
        .split("")
        .map(Number),
    );
    if (wanted(personFromCpf(cpf))) return cpf;
  }
}

/** The sandbox's files of a verification: whether it has both faces. */
async function hasFaces(publicId: string): Promise<boolean> {
  const files = await fetch(`${sandboxURL}/core/public/validations-persons/${encodeURIComponent(publicId)}/files`, {
    headers: { "x-api-key": "sbx_core_view_media" },
  });
  const entries = (await files.json()) as Record<string, unknown>;
  return Boolean(entries.selfie && entries.document_front);
}

/**
 * A red-flagged person's verification in review with both faces (the sandbox draws some without), made through the
 * dashboard: its case opens unassigned at creation. `cpf` picks the person, each try anew. Resolves once the case is
 * open.
 */
export async function flaggedCaseWithFaces(request: APIRequestContext, refPrefix: string, cpf: () => string): Promise<string> {
  for (let tries = 0; tries < 6; tries += 1) {
    const created = await request.post("/api/verifications", {
      headers: WRITE,
      data: { schemaVersion: "1", refId: `${refPrefix}-${Date.now()}-${tries}`, document: { type: "cpf", number: cpf() } },
    });
    expect(created.status()).toBe(201);
    const publicId = ((await created.json()) as { created: { publicId: string } }).created.publicId;
    await moveUpstream(publicId, "review");
    if (!(await hasFaces(publicId))) continue;
    await waitForOpenCase(request, publicId);
    return publicId;
  }
  throw new Error("no flagged verification in review with both faces in six tries");
}
