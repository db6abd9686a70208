import http from "node:http";
import type { AddressInfo } from "node:net";

import { and, eq } from "drizzle-orm";
import { afterAll, beforeAll, expect, it, vi } from "vitest";

import { auditEvents } from "@/lib/audit-trail/server/tables";
import { sessionFromCookies } from "@/lib/auth/server/require-role";
import { parseCookieHeader } from "@/lib/shared/cookie-header";
import { apiRequest, createTestStaff, sessionCookieFor } from "@/test/auth";
import { describeEachDatabase, setProcessDatabase, stubTestEnvironment, type TestDatabase } from "@/test/db";

import { POST } from "./route";

/** A stand-in for a provider's discovery document, with or without an end_session_endpoint. */
async function discoveryServer(endSession: boolean): Promise<{ issuer: string; close(): Promise<void> }> {
  const server = http.createServer((request, response) => {
    const issuer = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    if (request.url !== "/.well-known/openid-configuration") return void response.writeHead(404).end();
    response.setHeader("content-type", "application/json");
    response.end(JSON.stringify({ issuer, ...(endSession ? { end_session_endpoint: `${issuer}/session/end` } : {}) }));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    issuer: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

const signOutRequest = (cookie: string | undefined, headers: Record<string, string> = {}) =>
  apiRequest("/api/auth/sign-out", { method: "POST", cookie, headers });

describeEachDatabase("sign-out on $name", ({ open }) => {
  let handle: TestDatabase;
  let withEndSession: Awaited<ReturnType<typeof discoveryServer>>;
  let withoutEndSession: Awaited<ReturnType<typeof discoveryServer>>;

  beforeAll(async () => {
    handle = await open();
    setProcessDatabase(handle);
    withEndSession = await discoveryServer(true);
    withoutEndSession = await discoveryServer(false);
  });
  afterAll(async () => {
    setProcessDatabase(undefined);
    await handle?.dispose();
    await withEndSession?.close();
    await withoutEndSession?.close();
    vi.unstubAllEnvs();
  });

  const oidcEnv = (issuer: string) => ({
    OIDC_ISSUER: issuer,
    OIDC_CLIENT_ID: "kyc-dashboard",
    OIDC_CLIENT_SECRET: "client-secret",
    NEXTAUTH_URL: "https://kyc.example.com",
  });
  const signOuts = (userId: string) =>
    handle.db
      .select({ details: auditEvents.details })
      .from(auditEvents)
      .where(and(eq(auditEvents.action, "auth.sign_out"), eq(auditEvents.actorId, userId)));

  it("revokes the session with its audit event, clears the cookie and sends a form post to the sign-in page", async () => {
    stubTestEnvironment({ NEXTAUTH_URL: "http://localhost:3000" });
    const user = await createTestStaff(handle.db);
    const cookie = await sessionCookieFor(handle.db, user);
    const response = await POST(signOutRequest(cookie));
    expect(response.status).toBe(303);
    expect(response.headers.get("location")).toBe("http://localhost:3000/sign-in");
    expect(response.headers.get("set-cookie")).toMatch(/^next-auth\.session-token=;.*Max-Age=0/i);
    // The browser drops its cached pages and its storage as well (the session cookie is cleared by name).
    expect(response.headers.get("clear-site-data")).toBe('"cache", "storage"');
    // A copy of the cookie no longer opens anything.
    expect(await sessionFromCookies(parseCookieHeader(cookie))).toBeNull();
    expect(await signOuts(user.id)).toEqual([{ details: { method: "password" } }]);
    // Signing out again is harmless and records nothing new.
    expect((await POST(signOutRequest(cookie))).status).toBe(303);
    expect(await signOuts(user.id)).toHaveLength(1);
  });

  it("answers the page's script with JSON, and a request without a session with the sign-in page", async () => {
    stubTestEnvironment({ NEXTAUTH_URL: "http://localhost:3000" });
    const user = await createTestStaff(handle.db);
    const response = await POST(signOutRequest(await sessionCookieFor(handle.db, user), { accept: "application/json" }));
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ location: "http://localhost:3000/sign-in" });
    expect(response.headers.get("cache-control")).toBe("no-store");
    expect(response.headers.get("clear-site-data")).toBe('"cache", "storage"');
    expect((await POST(signOutRequest(undefined))).headers.get("location")).toBe("http://localhost:3000/sign-in");
  });

  it("refuses a sign-out posted by another site and leaves the session alone", async () => {
    stubTestEnvironment();
    const user = await createTestStaff(handle.db);
    const cookie = await sessionCookieFor(handle.db, user);
    const response = await POST(signOutRequest(cookie, { origin: "http://localhost:4000" }));
    expect(response.status).toBe(403);
    expect(response.headers.get("clear-site-data")).toBeNull();
    expect(await sessionFromCookies(parseCookieHeader(cookie))).not.toBeNull();
    expect(await signOuts(user.id)).toEqual([]);
  });

  it("ends a single sign-on session at the provider when it advertises end_session_endpoint", async () => {
    stubTestEnvironment(oidcEnv(withEndSession.issuer));
    const user = await createTestStaff(handle.db);
    const response = await POST(signOutRequest(await sessionCookieFor(handle.db, user, { method: "oidc" })));
    const location = new URL(response.headers.get("location") ?? "");
    expect(`${location.origin}${location.pathname}`).toBe(`${withEndSession.issuer}/session/end`);
    expect(Object.fromEntries(location.searchParams)).toEqual({
      client_id: "kyc-dashboard",
      post_logout_redirect_uri: "https://kyc.example.com/sign-in",
    });
    expect(await signOuts(user.id)).toEqual([{ details: { method: "oidc" } }]);
  });

  it("signs out locally when the provider has no end_session_endpoint, and after a password session", async () => {
    stubTestEnvironment(oidcEnv(withoutEndSession.issuer));
    const user = await createTestStaff(handle.db);
    const oidc = await POST(signOutRequest(await sessionCookieFor(handle.db, user, { method: "oidc" })));
    expect(oidc.headers.get("location")).toBe("https://kyc.example.com/sign-in");
    stubTestEnvironment(oidcEnv(withEndSession.issuer));
    const password = await POST(signOutRequest(await sessionCookieFor(handle.db, user)));
    expect(password.headers.get("location")).toBe("https://kyc.example.com/sign-in");
  });
});
