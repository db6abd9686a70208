import { afterEach, describe, expect, it, vi } from "vitest";

import { REVEAL_COOKIE } from "@/lib/integrations/server/reveal-cookie";
import type { CreatedIntegrationResponse, IntegrationListResponse } from "@/lib/integrations/types";
import { stubConfigEnv } from "@/test/config";
import { cookiePair, json, withPartnersHarness } from "@/test/partners-ops";

import { DELETE as forget, POST as reveal } from "./reveal/route";
import { GET, POST } from "./route";

/*
 * Integration keys through the route handlers, against a real sandbox: admin only, the stored domain,
 * the key value once plus the sealed reveal cookie (within the window, never after, never for another
 * admin), duplicate protection, and the key value nowhere in the database, the audit trail or the logs.
 */

const h = withPartnersHarness({ UPSTREAM_TIMEOUT_MS: "1500" }, { clear: "faults and requests" });
const URL_BASE = "http://localhost:3000/api/integrations";
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const createdKeys: string[] = [];

afterEach(() => {
  vi.useRealTimers();
  stubConfigEnv({ STEP_UP_SECONDS: "300" });
});

let labelCounter = 0;
function uniqueLabel(): string {
  labelCounter += 1;
  return `Loja ${labelCounter}`;
}

async function create(body: Record<string, unknown>, cookie = h.adminCookie) {
  const response = await POST(h.request(URL_BASE, { method: "POST", cookie, body }));
  if (response.status === 201) createdKeys.push((await json<CreatedIntegrationResponse>(response.clone())).integration.key);
  return response;
}

describe("who may", () => {
  it("refuses analysts (403) and anonymous callers (401), before any upstream call", async () => {
    expect((await GET(h.request(URL_BASE, { cookie: h.analystCookie }))).status).toBe(403);
    expect((await create({ domain: "example.com", label: "x" }, h.analystCookie)).status).toBe(403);
    expect((await GET(h.request(URL_BASE))).status).toBe(401);
    expect(
      (await reveal(h.request(`${URL_BASE}/reveal`, { method: "POST", cookie: h.analystCookie, body: { upstreamId: 1 } }))).status,
    ).toBe(403);
    expect(await h.sandbox.requests()).toEqual([]);
  });
});

describe("creating a key", () => {
  it("shows the domain as stored, the label, the times and the key once, and seals it into an HttpOnly cookie", async () => {
    const label = uniqueLabel();
    const response = await create({ domain: "https://Example.com.br/path", label });
    expect(response.status).toBe(201);
    expect(response.headers.get("cache-control")).toBe("no-store");
    const body = await json<CreatedIntegrationResponse>(response);
    expect(body.integration).toMatchObject({ domain: "example.com.br", label });
    expect(body.integration.key).toMatch(UUID);
    expect(body.integration.createdAt).toBeTruthy();
    expect(Date.parse(body.revealUntil) - Date.now()).toBeGreaterThan(590_000);

    const setCookie = response.headers.getSetCookie().find((header) => header.startsWith(`${REVEAL_COOKIE}=`));
    expect(setCookie).toBeDefined();
    expect(setCookie).toMatch(/HttpOnly/i);
    expect(setCookie).toMatch(/SameSite=Strict/i);
    expect(setCookie).toMatch(/Max-Age=600/i);
    // Sealed: the value is not readable in the cookie.
    expect(setCookie).not.toContain(body.integration.key);

    const sent = (await h.sandbox.requests()).filter((request) => request.path === "/partners/integrations");
    expect(sent).toHaveLength(1);
  });

  it("lists the keys created here (metadata only) and what can still be revealed", async () => {
    const label = uniqueLabel();
    const created = await create({ domain: "loja.example.org", label });
    const { integration } = await json<CreatedIntegrationResponse>(created);
    const cookie = `${h.adminCookie}; ${cookiePair(created, REVEAL_COOKIE)}`;
    const response = await GET(h.request(URL_BASE, { cookie }));
    expect(response.status).toBe(200);
    const text = await response.clone().text();
    expect(text).not.toContain(integration.key);
    const list = await json<IntegrationListResponse>(response);
    expect(list.keys.find((key) => key.upstreamId === integration.upstreamId)).toMatchObject({ label, domain: "loja.example.org" });
    expect(list.revealable.map((key) => key.upstreamId)).toContain(integration.upstreamId);
    expect(list.revealWindowSeconds).toBe(600);
  });

  it("refuses a bad domain before any call, naming the field", async () => {
    const hostile = [
      "ftp://example.com",
      "not a host",
      "https://user:pw@example.com",
      "",
      // Metadata, loopback and private addresses, in every spelling the URL parser folds to an IP.
      "169.254.169.254",
      "http://169.254.169.254/latest/meta-data/",
      "127.0.0.1",
      "2130706433",
      "0x7f.0.0.1",
      "10.0.0.1",
      "[::1]",
      "http://[fd00:ec2::254]/",
      "[::ffff:169.254.169.254]",
      "localhost",
      "http://localhost:3000",
      "api.localhost",
      "metadata",
      "printer.local",
      "metadata.google.internal",
      "db.corp",
      "router.home.arpa",
      "example.com\r\nX-Injected: 1",
    ];
    for (const domain of hostile) {
      const response = await create({ domain, label: "Loja" });
      expect(response.status).toBe(400);
      expect((await json<{ error: { fields: string[] } }>(response)).error.fields).toEqual(["domain"]);
    }
    const missingLabel = await create({ domain: "example.com" });
    expect((await json<{ error: { fields: string[] } }>(missingLabel)).error.fields).toEqual(["label"]);
    expect(await h.sandbox.requests()).toEqual([]);
  });

  it("never creates a second key silently: a repeat within the window is refused unless confirmed", async () => {
    const label = uniqueLabel();
    const first = await create({ domain: "https://dup.example.com", label });
    expect(first.status).toBe(201);
    const again = await create({ domain: "dup.example.com/other", label });
    expect(again.status).toBe(409);
    expect((await json<{ error: { code: string; fields: string[] } }>(again)).error).toMatchObject({
      code: "conflict",
      fields: ["confirmDuplicate"],
    });
    expect((await h.sandbox.requests()).filter((request) => request.path === "/partners/integrations")).toHaveLength(1);
    const confirmed = await create({ domain: "dup.example.com", label, confirmDuplicate: true });
    expect(confirmed.status).toBe(201);
  });

  it("two clicks at once create one key", async () => {
    const label = uniqueLabel();
    const [a, b] = await Promise.all([create({ domain: "twice.example.com", label }), create({ domain: "twice.example.com", label })]);
    expect([a.status, b.status].sort()).toEqual([201, 409]);
    expect((await h.sandbox.requests()).filter((request) => request.path === "/partners/integrations")).toHaveLength(1);
  });

  it("after a timeout (unknown outcome) a retry needs confirmation; it is then sent", async () => {
    const label = uniqueLabel();
    await h.sandbox.setFaults({ path_prefix: "/partners/integrations", timeout_rate: 1 });
    const timedOut = await create({ domain: "slow.example.com", label });
    expect(timedOut.status).toBe(503);
    expect((await json<{ error: { code: string; retryable: boolean } }>(timedOut)).error).toMatchObject({
      code: "upstream_unavailable",
      retryable: true,
    });
    await h.sandbox.clearFaults();
    expect((await create({ domain: "slow.example.com", label })).status).toBe(409);
    expect((await create({ domain: "slow.example.com", label, confirmDuplicate: true })).status).toBe(201);
  });
});

describe("revealing again", () => {
  async function createWithCookie() {
    const created = await create({ domain: "reveal.example.com", label: uniqueLabel() });
    const { integration } = await json<CreatedIntegrationResponse>(created);
    return { integration, cookie: cookiePair(created, REVEAL_COOKIE)! };
  }

  it("reveals the key from the sealed cookie within the window, to the admin who created it only", async () => {
    const { integration, cookie } = await createWithCookie();
    const response = await reveal(
      h.request(`${URL_BASE}/reveal`, {
        method: "POST",
        cookie: `${h.adminCookie}; ${cookie}`,
        body: { upstreamId: integration.upstreamId },
      }),
    );
    expect(response.status).toBe(200);
    expect(response.headers.get("cache-control")).toBe("no-store");
    expect((await json<CreatedIntegrationResponse>(response)).integration).toMatchObject({
      key: integration.key,
      domain: "reveal.example.com",
    });

    // Another admin holding the same cookie gets nothing.
    const { createTestStaff, sessionCookieFor } = await import("@/test/auth");
    const other = await createTestStaff(h.db.db, { role: "admin" });
    const otherCookie = await sessionCookieFor(h.db.db, other);
    const foreign = await reveal(
      h.request(`${URL_BASE}/reveal`, {
        method: "POST",
        cookie: `${otherCookie}; ${cookie}`,
        body: { upstreamId: integration.upstreamId },
      }),
    );
    expect(foreign.status).toBe(404);
    // Without the cookie: nothing either.
    expect(
      (
        await reveal(
          h.request(`${URL_BASE}/reveal`, { method: "POST", cookie: h.adminCookie, body: { upstreamId: integration.upstreamId } }),
        )
      ).status,
    ).toBe(404);
  });

  it("never reveals it after the window (the dashboard's clock), and deletes the cookie", async () => {
    // The admin's step-up stays fresh across the window this test moves through (it is not what is tested).
    stubConfigEnv({ STEP_UP_SECONDS: "3600" });
    const { integration, cookie } = await createWithCookie();
    vi.useFakeTimers({ toFake: ["Date"], now: Date.now() + 599_000 });
    const within = await reveal(
      h.request(`${URL_BASE}/reveal`, {
        method: "POST",
        cookie: `${h.adminCookie}; ${cookie}`,
        body: { upstreamId: integration.upstreamId },
      }),
    );
    expect(within.status).toBe(200);
    vi.setSystemTime(Date.now() + 2_000);
    const after = await reveal(
      h.request(`${URL_BASE}/reveal`, {
        method: "POST",
        cookie: `${h.adminCookie}; ${cookie}`,
        body: { upstreamId: integration.upstreamId },
      }),
    );
    expect(after.status).toBe(404);
    expect(await after.text()).not.toContain(integration.key);
    expect(after.headers.getSetCookie().some((header) => header.startsWith(`${REVEAL_COOKIE}=;`) && /Max-Age=0/i.test(header))).toBe(true);
    const list = await json<IntegrationListResponse>(await GET(h.request(URL_BASE, { cookie: `${h.adminCookie}; ${cookie}` })));
    expect(list.revealable).toEqual([]);
  });

  it("forgets a key on request", async () => {
    const { integration, cookie } = await createWithCookie();
    const response = await forget(
      h.request(`${URL_BASE}/reveal`, {
        method: "DELETE",
        cookie: `${h.adminCookie}; ${cookie}`,
        body: { upstreamId: integration.upstreamId },
      }),
    );
    expect(response.status).toBe(200);
    const left = cookiePair(response, REVEAL_COOKIE) ?? `${REVEAL_COOKIE}=`;
    const again = await reveal(
      h.request(`${URL_BASE}/reveal`, {
        method: "POST",
        cookie: `${h.adminCookie}; ${left}`,
        body: { upstreamId: integration.upstreamId },
      }),
    );
    expect(again.status).toBe(404);
  });
});

describe("where the key value never goes", () => {
  it("is in no table (audit trail included) and no log line", async () => {
    expect(createdKeys.length).toBeGreaterThan(3);
    const text = await h.allText();
    expect(text).toContain("integration.create");
    expect(text).toContain("example.com.br");
    for (const key of createdKeys) {
      expect(text).not.toContain(key);
      expect(h.logLines.join("\n")).not.toContain(key);
    }
    // Nor the dashboard's own integration token.
    const { SANDBOX_DEFAULTS } = await import("@/lib/config");
    expect(text).not.toContain(SANDBOX_DEFAULTS.partnersIntegrationToken);
  });
});
