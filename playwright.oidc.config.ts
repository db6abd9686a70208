import path from "node:path";

import { defineConfig, devices } from "@playwright/test";

import { CHROMIUM_ARGS, findChromium } from "./scripts/browser.mjs";

/*
 * The single sign-on browser suite (e2e/oidc/): the same production build and sandbox as the main suite
 * (playwright.config.ts, same ports, run after it), with the dashboard configured for a real OpenID
 * provider that scripts/test.mjs starts first (test/oidc-provider/) on a random port and names in
 * OIDC_TEST_ISSUER. `npm test` runs it twice: the provider conformant (claims from userinfo) and with the
 * email in the ID token.
 *
 *   npm run test:e2e -- --oidc-only      both runs, nothing else
 */

const issuer = process.env.OIDC_TEST_ISSUER;
const clientSecret = process.env.OIDC_TEST_CLIENT_SECRET;
if (!issuer || !clientSecret) {
  throw new Error("OIDC_TEST_ISSUER is not set: run this suite through `npm run test:e2e -- --oidc-only`, which starts the provider");
}

const PORT = Number(process.env.E2E_PORT ?? 3100);
const SANDBOX_PORT = Number(process.env.E2E_SANDBOX_PORT ?? 4110);
const baseURL = `http://localhost:${PORT}`;

export default defineConfig({
  testDir: "./e2e/oidc",
  fullyParallel: false,
  workers: 2,
  forbidOnly: !!process.env.CI,
  retries: process.env.CI ? 1 : 0,
  timeout: 60_000,
  expect: { timeout: 10_000 },
  use: {
    baseURL,
    trace: "on-first-retry",
    launchOptions: { executablePath: findChromium(), args: CHROMIUM_ARGS },
  },
  projects: [{ name: "chromium-oidc", use: { ...devices["Desktop Chrome"] } }],
  webServer: {
    command: "node scripts/run.mjs demo --no-build",
    url: `${baseURL}/api/health`,
    timeout: 120_000,
    reuseExistingServer: false,
    stdout: "pipe",
    stderr: "pipe",
    env: {
      PORT: String(PORT),
      SANDBOX_PORT: String(SANDBOX_PORT),
      DATA_DIR: process.env.E2E_OIDC_DATA_DIR ?? path.resolve(".test-data", "e2e-oidc"),
      E2E: "1",
      OIDC_ISSUER: issuer,
      OIDC_CLIENT_ID: process.env.OIDC_TEST_CLIENT_ID ?? "kyc-dashboard",
      OIDC_CLIENT_SECRET: clientSecret,
    },
  },
});
