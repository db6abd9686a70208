import { afterAll, beforeAll, describe, expect, it } from "vitest";

import { GET as CASES } from "@/app/api/cases/route";
import { POST as SYNC } from "@/app/api/cases/sync/route";
import { GET as LIST } from "@/app/api/verifications/route";
import { POST as RECEIVE } from "@/app/api/webhooks/verification-events/route";
import { setGrants } from "@/lib/connections/server/access";
import { kickWebhookProcessor } from "@/lib/webhooks/server/processor";
import { createTestStaff, sessionCookieFor } from "@/test/auth";
import type { Ids } from "@/test/leak-guard/masking-inputs";
import { everyAnswer, loadRoutes, ORIGIN, type Loaded } from "@/test/leak-guard/route-calls";
import { json, startPartnersHarness, type PartnersHarness } from "@/test/partners-ops";
import { flatEvent, TEST_WEBHOOK_SECRET, webhookRequest } from "@/test/webhooks";

/*
 * Data never mixed (issue 33, item 3), over the whole route table: with cases, events and index entries kept under
 * the three connections embedded mode seeds, a member working under one connection calls every route the masking guard
 * knows how to call (./masking-inputs.ts: every GET, and every other method whose answer carries a titular's data),
 * and no answer names a verification of another connection. Built from the route table, so a new route is covered
 * without editing this test; a route whose answer spans connections by design is listed below with the reason.
 */

const ACROSS_CONNECTIONS: Record<string, string> = {
  "GET /api/audit": "the trail is one chain over every connection; each event names its own (?in_connection= filters)",
  "POST /api/privacy/reports": "a titular's report covers what the dashboard keeps about them under every connection",
};

const CONNECTIONS = ["primary", "production", "other-integration"] as const;
type ConnectionId = (typeof CONNECTIONS)[number];

let h: PartnersHarness;
let routes: Loaded[];
const verificationsOf = new Map<ConnectionId, string[]>();
const noParams = { params: Promise.resolve({}) as Promise<never> };

beforeAll(async () => {
  h = await startPartnersHarness({
    CORE_API_KEY: "sbx_core_unmasked",
    CORE_MAX_PER_PAGE: "100",
    UPSTREAM_TIMEOUT_MS: "15000",
    WEBHOOK_SIGNING_SECRET: TEST_WEBHOOK_SECRET,
  });
  routes = await loadRoutes();
  for (const connection of CONNECTIONS) {
    const synced = await SYNC(
      h.request(`${ORIGIN}/api/cases/sync?connection=${connection}`, { method: "POST", cookie: h.adminCookie }),
      noParams,
    );
    expect(synced.status).toBe(200);
    const listed = await LIST(
      h.request(`${ORIGIN}/api/verifications?per_page=100&connection=${connection}`, { cookie: h.adminCookie }),
      noParams,
    );
    verificationsOf.set(
      connection,
      (await json<{ items: Array<{ publicId: string }> }>(listed)).items.map((item) => item.publicId),
    );
  }
  // An event of each connection's, filed by the receiver under it.
  for (const connection of CONNECTIONS) {
    const publicId = verificationsOf.get(connection)![0]!;
    expect(
      (await RECEIVE(webhookRequest(flatEvent(publicId, { status: "review", ref_id: `guard-${connection}` })), noParams)).status,
    ).toBeLessThan(300);
  }
  // The receiver has started processing in the background (kickWebhookProcessor); a pass of our own would skip the
  // delivery that run holds locked and return before it commits. Kicking again waits for that run and one more pass.
  await kickWebhookProcessor();
}, 180_000);
afterAll(async () => {
  await h?.dispose();
});

/** A member whose role holds every permission, given `connection` only: their requests work under it by default. */
async function memberOf(connection: ConnectionId): Promise<string> {
  const member = await createTestStaff(h.db.db, { role: "admin" });
  await setGrants(h.db.db, member.id, [{ connectionId: connection, withheld: [] }]);
  return sessionCookieFor(h.db.db, member);
}

async function idsUnder(connection: ConnectionId, cookie: string): Promise<Omit<Ids, "mediaToken">> {
  const listed = await LIST(h.request(`${ORIGIN}/api/verifications?status=review&per_page=5`, { cookie }), noParams);
  const first = (await json<{ items: Array<{ publicId: string; document: string }> }>(listed)).items[0]!;
  const queue = await json<{ items: Array<{ publicId: string }> }>(
    await CASES(h.request(`${ORIGIN}/api/cases?queue=open`, { cookie }), noParams),
  );
  expect(verificationsOf.get(connection)).toContain(first.publicId);
  return {
    publicId: first.publicId,
    casePublicId: queue.items[0]!.publicId,
    cpf: first.document,
    refId: `guard-${connection}`,
    staffId: h.analystId,
  };
}

describe("every answer under one connection", () => {
  it.each(CONNECTIONS)(
    "under %s names no verification of another connection",
    async (connection) => {
      const cookie = await memberOf(connection);
      const ids = await idsUnder(connection, cookie);
      const answers = await everyAnswer(h, routes, cookie, ids);
      // The answers that carry verifications answered (a refusal would check nothing).
      const answered = new Set(answers.filter((answer) => answer.status === 200).map((answer) => answer.key));
      for (const key of [
        "GET /api/verifications",
        "GET /api/cases",
        "GET /api/cases/[publicId]",
        "GET /api/verification-events",
        "POST /api/search",
      ]) {
        expect(answered.has(key), key).toBe(true);
      }
      const others = CONNECTIONS.filter((other) => other !== connection).flatMap((other) => verificationsOf.get(other)!);
      expect(others.length).toBeGreaterThan(10);
      const mixed = answers
        .filter((answer) => !(answer.key in ACROSS_CONNECTIONS))
        .flatMap((answer) => others.filter((publicId) => answer.text.includes(publicId)).map((publicId) => `${answer.label}: ${publicId}`));
      expect(mixed).toEqual([]);
    },
    180_000,
  );
});
