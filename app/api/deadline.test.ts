import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";

import type { VerificationListResponse } from "@/lib/verifications/types";
import { startPartnersHarness, type PartnersHarness } from "@/test/partners-ops";

import { POST as lookup } from "./lookups/cpf/route";
import { GET as getMedia } from "./verifications/[publicId]/media/route";
import { GET as getOne } from "./verifications/[publicId]/route";
import { GET as list } from "./verifications/route";

/*
 * One total deadline per upstream read (UPSTREAM_READ_DEADLINE_MS), whatever the per-attempt timeout and
 * the retries: against a sandbox that hangs every answer far longer than attempts × timeout, each read
 * answers "unavailable, retry" instead of waiting out every attempt. Per-attempt timeout 10 s with two
 * retries would take over 30 s (a login, one POST attempt, 10 s); these tests end before their own 8 s limit only because the deadline
 * (1.5 s here) ends the wait. The outcome is asserted, not a duration.
 */

let h: PartnersHarness;
const BASE = "http://localhost:3000/api";
let publicId: string;

beforeAll(async () => {
  h = await startPartnersHarness({ UPSTREAM_TIMEOUT_MS: "10000", UPSTREAM_READ_RETRIES: "2", UPSTREAM_READ_DEADLINE_MS: "1500" });
  const listed = await list(h.request(`${BASE}/verifications?per_page=1`, { cookie: h.analystCookie }));
  publicId = ((await listed.json()) as VerificationListResponse).items[0]!.publicId;
});
afterAll(async () => {
  await h?.dispose();
});
beforeEach(async () => {
  // Every answer held for a minute: only the dashboard's own deadline can end the wait.
  await h.sandbox.setFaults({ path_prefix: "/", latency_ms: 60_000 });
  await h.sandbox.clearRequests();
});

type ErrorBody = { error: { code: string; retryable?: boolean } };

async function expectUnavailable(response: Response) {
  expect(response.status).toBe(503);
  expect(((await response.json()) as ErrorBody).error).toMatchObject({ code: "upstream_unavailable", retryable: true });
}

describe("a hanging upstream is answered within the read deadline", { timeout: 8_000 }, () => {
  it("the list", async () => {
    await expectUnavailable(await list(h.request(`${BASE}/verifications`, { cookie: h.analystCookie })));
  });

  it("the detail", async () => {
    await expectUnavailable(
      await getOne(h.request(`${BASE}/verifications/${publicId}`, { cookie: h.analystCookie }), { params: Promise.resolve({ publicId }) }),
    );
  });

  it("the media", async () => {
    await expectUnavailable(
      await getMedia(h.request(`${BASE}/verifications/${publicId}/media`, { cookie: h.analystCookie }), {
        params: Promise.resolve({ publicId }),
      }),
    );
  });

  it("a CPF lookup", async () => {
    const response = await lookup(
      h.request(`${BASE}/lookups/cpf`, {
        method: "POST",
        cookie: h.analystCookie,
        body: { cpf: "529.982.247-25", source: "receita", purpose: "Onboarding check" },
      }),
    );
    expect(response.status).toBe(503);
    expect(((await response.json()) as ErrorBody).error.retryable).toBe(true);
  });
});
