import type { APIRequestContext } from "@playwright/test";

import { baseURL } from "@/playwright.config";

import { expect, SAME_ORIGIN, signInContext, test, WRITE, type Account } from "./fixtures";

/*
 * The client's address as the production server works it out (lib/auth/address.ts): before Next handles a
 * request, the server writes the connection's peer address into `x-kyc-peer-address`, over anything the
 * client sent under that name (lib/auth/peer-address.ts, from instrumentation.ts). Were a client-sent value
 * believed, anyone could pick the address their sign-in failures count against and the audit trail records.
 * The e2e server trusts the loopback as a proxy (playwright.config.ts), so X-Forwarded-For is believed only
 * from the real peer. What the dashboard concluded is read back from the audit trail's `ip`.
 */

const PEER_HEADER = "x-kyc-peer-address";
const FORGED = "203.0.113.77";

/** Looks a CPF up under a purpose no other request uses, then answers the `ip` the trail recorded for it. */
async function recordedAddress(request: APIRequestContext, admin: APIRequestContext, actor: Account, headers: Record<string, string>) {
  const purpose = `client address check ${Date.now()}-${Math.random().toString(36).slice(2, 8)}`;
  const lookup = await request.post("/api/lookups/cpf", {
    headers: { ...WRITE, ...headers },
    data: { cpf: "52998224725", source: "receita", purpose },
  });
  expect(lookup.ok()).toBe(true);
  const trail = await admin.get(`/api/audit?action=lookup.cpf_receita&actor=${encodeURIComponent(actor.email)}&limit=100`, {
    headers: SAME_ORIGIN,
  });
  expect(trail.ok()).toBe(true);
  const { events } = (await trail.json()) as { events: Array<{ purpose: string | null; ip: string | null }> };
  const ours = events.filter((event) => event.purpose === purpose);
  expect(ours).toHaveLength(1);
  return ours[0]!.ip;
}

test("a peer address sent by the client is replaced by the connection's own", async ({ adminPage, clientAddress, playwright, staff }) => {
  // Through this worker's contexts (X-Forwarded-For: the worker's address, sent from the loopback): the
  // forged peer header changes nothing, the address is the one the trusted peer forwarded.
  expect(await recordedAddress(adminPage.request, adminPage.request, staff.admin, { [PEER_HEADER]: FORGED })).toBe(clientAddress);

  // Without X-Forwarded-For the address is the connection's own, the loopback, and still not the forged one.
  const direct = await playwright.request.newContext({ baseURL, extraHTTPHeaders: {} });
  try {
    const csrf = (await (await direct.get("/api/auth/csrf")).json()) as { csrfToken: string };
    const signedIn = await direct.post("/api/auth/callback/credentials", {
      form: { csrfToken: csrf.csrfToken, email: staff.admin.email, password: staff.admin.password, json: "true" },
      maxRedirects: 0,
    });
    expect(signedIn.status()).toBeLessThan(400);
    const address = await recordedAddress(direct, adminPage.request, staff.admin, { [PEER_HEADER]: FORGED });
    expect(["127.0.0.1", "::1"]).toContain(address);
  } finally {
    await direct.dispose();
  }
});

// The browser tests' own isolation (e2e/fixtures.ts): this worker's sign-ins count against its own address.
test("the e2e server believes the address this worker forwards, so sign-in throttling is per worker", async ({
  browser,
  clientAddress,
  adminPage,
  staff,
}) => {
  const context = await browser.newContext();
  try {
    await signInContext(context, staff.analyst);
    const trail = await adminPage.request.get(`/api/audit?action=auth.sign_in&actor=${encodeURIComponent(staff.analyst.email)}&limit=1`, {
      headers: SAME_ORIGIN,
    });
    const { events } = (await trail.json()) as { events: Array<{ ip: string | null }> };
    expect(events[0]?.ip).toBe(clientAddress);
  } finally {
    await context.close();
  }
});
