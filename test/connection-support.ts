import { expect } from "vitest";

import { GET as QUEUE } from "@/app/api/cases/route";
import { POST as SYNC } from "@/app/api/cases/sync/route";
import { GET as LIST } from "@/app/api/verifications/route";
import { json, type PartnersHarness } from "@/test/partners-ops";
import { TEST_WEBHOOK_SECRET } from "@/test/webhooks";

/*
 * Support of the tests that data is never mixed between connections (issue 33, item 3): a real sandbox and the three
 * connections embedded mode seeds (`primary`: int_main/sandbox, `production`: int_main/production,
 * `other-integration`: int_other/sandbox), and the reads every such test starts from.
 */

// The sandbox key that returns CPFs whole (sandbox/api-keys.ts), so the sync indexes them for the search.
export const SCOPE_ENV = { CORE_API_KEY: "sbx_core_unmasked", WEBHOOK_SIGNING_SECRET: TEST_WEBHOOK_SECRET, CORE_MAX_PER_PAGE: "100" };
export const ORIGIN = "http://localhost:3000";
export const CONNECTIONS = ["primary", "production", "other-integration"] as const;

export const noParams = { params: Promise.resolve({}) as Promise<never> };
export const withId = (publicId: string) => ({ params: Promise.resolve({ publicId }) });

/** What the scope tests ask of a harness: the verifications in review, the open queue, every connection's sync. */
export function scopeHelpers(h: PartnersHarness) {
  async function reviewIds(connection: string): Promise<string[]> {
    const response = await LIST(
      h.request(`${ORIGIN}/api/verifications?status=review&per_page=100&connection=${connection}`, { cookie: h.adminCookie }),
    );
    expect(response.status).toBe(200);
    return (await json<{ items: Array<{ publicId: string }> }>(response)).items.map((item) => item.publicId);
  }

  async function queueIds(connection: string): Promise<string[]> {
    const response = await QUEUE(
      h.request(`${ORIGIN}/api/cases?queue=open&per_page=200&connection=${connection}`, { cookie: h.adminCookie }),
      noParams,
    );
    expect(response.status).toBe(200);
    return (await json<{ items: Array<{ publicId: string }> }>(response)).items.map((item) => item.publicId);
  }

  async function syncAll(): Promise<void> {
    for (const connection of CONNECTIONS) {
      const response = await SYNC(
        h.request(`${ORIGIN}/api/cases/sync?connection=${connection}`, { method: "POST", cookie: h.adminCookie }),
        noParams,
      );
      expect(response.status, connection).toBe(200);
    }
  }
  return { reviewIds, queueIds, syncAll };
}
