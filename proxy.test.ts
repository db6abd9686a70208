import { unstable_doesMiddlewareMatch } from "next/experimental/testing/server";
import { describe, expect, it } from "vitest";

import { config } from "./proxy";

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
  ])("skips %s", (url) => {
    expect(runs(url)).toBe(false);
  });

  it("skips exactly the files in public/ (a file added there must be added to the matcher)", async () => {
    const { readdirSync } = await import("node:fs");
    const files = readdirSync(new URL("./public", import.meta.url)).filter((name) => !name.startsWith("."));
    for (const file of files) expect(runs(`/${file}`), file).toBe(false);
  });
});
