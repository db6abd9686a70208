import { unstable_doesMiddlewareMatch } from "next/experimental/testing/server";
import { NextRequest } from "next/server";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

import { httpStatusOf } from "@/lib/api/errors";
import { AppError } from "@/lib/shared/errors";
import { restoreConfigEnv } from "@/test/config";
import { stubTestEnvironment } from "@/test/db";
import { sentHeaders } from "@/test/next-headers";

import { config, proxy } from "./proxy";

// Which paths Next runs proxy.ts for, compiled by Next itself from `config.matcher`: every rendered page gets
// its CSP nonce, whatever its path ends in; only Next's assets, the files in public/ and the API stay out.

const runs = (url: string) => unstable_doesMiddlewareMatch({ config, url });

describe("proxy matcher", () => {
  it.each([
    "/",
    "/sign-in",
    "/verifications",
    "/verifications/x.js",
    "/verifications/abc123",
    "/a.css",
    "/x.txt",
    "/cases/y.svg",
    "/logo.png",
    "/icon-192.png.html",
    "/admin/robots.txt",
    "/favicon.ico/x",
    "/apix",
    "/_next/staticx",
  ])("runs for %s", (url) => {
    expect(runs(url)).toBe(true);
  });

  it.each([
    "/_next/static/chunks/main-abc123.js",
    "/_next/static/css/app.css",
    "/_next/image?url=%2Ficon-192.png&w=64&q=75",
    "/favicon.ico",
    "/icon-192.png",
    "/icon-512.png",
    "/manifest.webmanifest",
    "/robots.txt",
    "/api/health",
    "/api/auth/session",
    "/api/verifications/x.js",
    "/api/verifications/abc123",
  ])("skips %s", (url) => {
    expect(runs(url)).toBe(false);
  });

  it("skips exactly the files in public/ (a file added there must be added to the matcher)", async () => {
    const { readdirSync } = await import("node:fs");
    const files = readdirSync(new URL("./public", import.meta.url)).filter((name) => !name.startsWith("."));
    for (const file of files) expect(runs(`/${file}`), file).toBe(false);
  });
});

describe("an address whose percent-encoding does not decode", () => {
  beforeAll(() => stubTestEnvironment());
  afterAll(restoreConfigEnv);

  it.each(["/api/verifications/%C0%AE", "/api/media/%E0%A4%A", "/api/cases/%FF/notes", "/verifications/%C0%AE"])(
    "%s: a 400 JSON answer from the error mapper's shape with the API's headers, not Next's bare 500",
    async (path) => {
      expect(runs(path)).toBe(true);
      const response = proxy(new NextRequest(`http://localhost:3000${path}`));
      expect(response.status).toBe(httpStatusOf(new AppError("bad_request")));
      expect(response.headers.get("content-type")).toContain("application/json");
      expect(await response.json()).toEqual({ error: { code: "bad_request", message: expect.stringContaining("percent-encoding") } });
      // As sent: next.config.mjs's headers, then the proxy's own.
      const sent = await sentHeaders(path, response);
      const apiPolicy = (await sentHeaders("/api/health")).get("content-security-policy");
      expect(response.headers.get("content-security-policy")).toBe(apiPolicy);
      expect(sent.get("content-security-policy")).toContain("default-src 'none'");
      expect(sent.get("x-content-type-options")).toBe("nosniff");
      expect(sent.get("x-frame-options")).toBe("DENY");
      expect(sent.get("cache-control")).toBe("no-store");
    },
  );

  it("passes a well-encoded API address on untouched, without a page's policy or a sign-in redirect", () => {
    const path = "/api/verifications/a%20b";
    expect(runs(path)).toBe(true);
    const response = proxy(new NextRequest(`http://localhost:3000${path}`));
    expect(response.status).toBe(200);
    expect(response.headers.get("x-middleware-next")).toBe("1");
    expect(response.headers.get("content-security-policy")).toBeNull();
    expect(response.headers.get("location")).toBeNull();
  });
});

describe("a page address naming a connection", () => {
  beforeAll(() => stubTestEnvironment());
  afterAll(restoreConfigEnv);
  const signedIn = (path: string, headers: Record<string, string> = {}) =>
    proxy(new NextRequest(`http://localhost:3000${path}`, { headers: { cookie: "next-auth.session-token=x", ...headers } }));

  it("is served as the page without the prefix, the connection in the request's header", () => {
    const response = signedIn("/c/production/verifications/abc?status=review");
    const rewritten = new URL(response.headers.get("x-middleware-rewrite")!);
    expect(rewritten.pathname + rewritten.search).toBe("/verifications/abc?status=review");
    expect(response.headers.get("x-middleware-request-x-kyc-connection")?.split(";")[0]).toBe("production");
    // The page still learns the address the browser shows, for the way back after signing in.
    expect(response.headers.get("x-middleware-request-x-kyc-pathname")).toBe("/c/production/verifications/abc?status=review");
  });

  it("the prefix alone is the connection's overview", () => {
    expect(new URL(signedIn("/c/production").headers.get("x-middleware-rewrite")!).pathname).toBe("/");
  });

  it("a connection header sent by the browser itself is dropped: only the address names one", () => {
    const response = signedIn("/verifications", { "x-kyc-connection": "production" });
    expect(response.headers.get("x-middleware-rewrite")).toBeNull();
    expect(response.headers.get("x-middleware-request-x-kyc-connection")).toBeNull();
    expect(response.headers.get("x-middleware-override-headers")).not.toContain("x-kyc-connection");
  });

  it("signed out, goes to sign-in and comes back to the same connection", () => {
    const response = proxy(new NextRequest("http://localhost:3000/c/production/cases"));
    expect(new URL(response.headers.get("location")!).searchParams.get("callbackUrl")).toBe("/c/production/cases");
  });
});

describe("the second pass over a rewritten address", () => {
  beforeAll(() => stubTestEnvironment());
  afterAll(restoreConfigEnv);

  it("keeps the connection, the address the browser asked for, and the first pass's nonce and policy", () => {
    const first = proxy(
      new NextRequest("http://localhost:3000/c/production/cases?x=1", { headers: { cookie: "next-auth.session-token=x" } }),
    );
    const carried: Record<string, string> = { cookie: "next-auth.session-token=x" };
    for (const name of first.headers.get("x-middleware-override-headers")!.split(",")) {
      carried[name] = first.headers.get(`x-middleware-request-${name}`)!;
    }
    const second = proxy(new NextRequest("http://localhost:3000/cases?x=1", { headers: carried }));
    expect(second.headers.get("x-middleware-rewrite")).toBeNull();
    expect(second.headers.get("x-middleware-request-x-kyc-connection")?.split(";")[0]).toBe("production");
    expect(second.headers.get("x-middleware-request-x-kyc-pathname")).toBe("/c/production/cases?x=1");
    expect(second.headers.get("x-middleware-request-x-nonce")).toBe(carried["x-nonce"]);
    expect(second.headers.get("content-security-policy")).toBe(first.headers.get("content-security-policy"));
  });

  it("a connection header the browser made up, even shaped like the proxy's, is dropped", () => {
    const forged = proxy(
      new NextRequest("http://localhost:3000/cases", {
        headers: { cookie: "next-auth.session-token=x", "x-kyc-connection": "production;00000000-0000-4000-8000-000000000000" },
      }),
    );
    expect(forged.headers.get("x-middleware-request-x-kyc-connection")).toBeNull();
    expect(forged.headers.get("x-middleware-request-x-kyc-pathname")).toBe("/cases");
  });
});
