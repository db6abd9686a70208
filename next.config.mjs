import { execFileSync } from "node:child_process";
import fs from "node:fs";

import createNextIntlPlugin from "next-intl/plugin";

// The release GET /api/health names, fixed at build time: package.json's version and the commit built (GIT_COMMIT
// when the build has no .git, as in a container or from an archive).
function buildCommit() {
  if (process.env.GIT_COMMIT) return process.env.GIT_COMMIT;
  try {
    return execFileSync("git", ["rev-parse", "--short=12", "HEAD"], { encoding: "utf8", stdio: ["ignore", "pipe", "ignore"] }).trim();
  } catch {
    return "unknown";
  }
}
const RELEASE = { KYC_VERSION: JSON.parse(fs.readFileSync("package.json", "utf8")).version, KYC_COMMIT: buildCommit() };

// Every powerful browser feature off: a back office needs none of them, except passkeys (WebAuthn), which
// sign-in and the second factor use on this origin only, never in a frame from elsewhere.
const PERMISSIONS_POLICY = [
  "accelerometer",
  "autoplay",
  "bluetooth",
  "browsing-topics",
  "camera",
  "display-capture",
  "encrypted-media",
  "fullscreen=(self)",
  "geolocation",
  "gyroscope",
  "hid",
  "idle-detection",
  "magnetometer",
  "microphone",
  "midi",
  "payment",
  "picture-in-picture",
  "publickey-credentials-create=(self)",
  "publickey-credentials-get=(self)",
  "screen-wake-lock",
  "serial",
  "usb",
  "xr-spatial-tracking",
]
  .map((feature) => (feature.includes("=") ? feature : `${feature}=()`))
  .join(", ");

// API answers are data: nothing loads, runs, frames them or is posted from them.
const API_CONTENT_SECURITY_POLICY = "default-src 'none'; frame-ancestors 'none'; base-uri 'none'; form-action 'none'";

// Messages are compiled when the build loads them (messages/**/*.json, icu-minify), and next-intl formats them
// with its small formatter: the ICU parser (intl-messageformat) stays out of the browser. A module that reads a
// catalogue file directly gets the compiled form too, which is the text itself for a message without
// arguments, plurals or tags (the role and reason labels the API answers with are such texts).
const withNextIntl = createNextIntlPlugin({
  requestConfig: "./lib/i18n/request.ts",
  experimental: { messages: { path: "./messages", format: "json", precompile: true } },
});

/** @type {import('next').NextConfig} */
const nextConfig = {
  // Every build also writes the standalone server (.next/standalone: server.js and only the packages it loads), which
  // `npm run package` ships with the static files, the migrations and a start script (scripts/package.mjs). Always on,
  // so one build serves `npm start`, `npm run demo`, the browser tests and the archive alike: `next start` serves .next
  // as before (it warns that it does not work with standalone output; it does, the standalone folder is a copy beside).
  output: "standalone",
  // Inlined where server code reads them (app/api/health/route.ts): the release survives a copy without the source tree.
  env: RELEASE,
  // PGlite is WebAssembly and pg has optional native bindings: both stay out of the bundle, and so does
  // undici (the upstream clients' HTTP client), loaded from node_modules like Node loads its own copy.
  serverExternalPackages: [
    "@electric-sql/pglite",
    "pg",
    "undici",
    "pdfkit",
    "prom-client",
    "@opentelemetry/sdk-trace-node",
    "@opentelemetry/sdk-trace-base",
    "@opentelemetry/exporter-trace-otlp-http",
    "@opentelemetry/resources",
  ],
  poweredByHeader: false,
  // Lets two builds live side by side (e.g. browser tests of two branches on one machine).
  distDir: process.env.NEXT_DIST_DIR || ".next",
  images: { unoptimized: true },
  // Headers every answer carries. Pages also get a nonce-based CSP from proxy.ts; API answers are data and
  // get a policy that lets nothing load or run. docs/security.md "Security headers" explains each one.
  async headers() {
    const everywhere = [
      { key: "X-Content-Type-Options", value: "nosniff" },
      // same-origin, not no-referrer: under no-referrer a browser sends `Origin: null` with a plain form post, which
      // the same-origin checks must refuse (the second step and sign-out without JavaScript).
      { key: "Referrer-Policy", value: "same-origin" },
      { key: "X-Frame-Options", value: "DENY" },
      { key: "Cross-Origin-Opener-Policy", value: "same-origin" },
      { key: "Cross-Origin-Resource-Policy", value: "same-origin" },
      { key: "Permissions-Policy", value: PERMISSIONS_POLICY },
      // A back office has nothing for search engines (robots.txt says the same to polite crawlers).
      { key: "X-Robots-Tag", value: "noindex, nofollow" },
    ];
    // Browsers ignore HSTS over plain HTTP, and a development machine must not be pinned to HTTPS.
    if (process.env.NODE_ENV === "production") {
      everywhere.push({ key: "Strict-Transport-Security", value: "max-age=63072000; includeSubDomains" });
    }
    // A header set here wins over the handler's own of the same name (Next adds a handler's header only when none is
    // set yet), so what an API answer must carry is said here.
    return [
      { source: "/:path*", headers: everywhere },
      { source: "/api/:path*", headers: [{ key: "Content-Security-Policy", value: API_CONTENT_SECURITY_POLICY }] },
      // An image opened on its own can do nothing but be an image, and its address (a media token) is never a referrer.
      {
        source: "/api/media/:path*",
        headers: [
          { key: "Content-Security-Policy", value: `${API_CONTENT_SECURITY_POLICY}; sandbox` },
          { key: "Referrer-Policy", value: "no-referrer" },
        ],
      },
    ];
  },
};

export default withNextIntl(nextConfig);
