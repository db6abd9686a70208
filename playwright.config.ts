import path from "node:path";

import { defineConfig, devices } from "@playwright/test";

import { blankAppEnv } from "./scripts/app-env.mjs";
import { CHROMIUM_ARGS, findChromium } from "./scripts/browser.mjs";

// The browser tests drive a production build (`npm run demo --no-build`) and the sandbox, on ports of
// their own so a running `npm run dev` is left alone. Of the host's environment only CI changes how they
// run (retries, forbidOnly); the servers get every documented setting blanked, then the suite's own.
const PORT = Number(process.env.E2E_PORT ?? 3100);
const SANDBOX_PORT = Number(process.env.E2E_SANDBOX_PORT ?? 4110);
export const baseURL = `http://localhost:${PORT}`;
export const sandboxURL = `http://127.0.0.1:${SANDBOX_PORT}`;
/** The main suite's DATA_DIR: the specs read the secrets the dashboard generated there. */
export const dataDir = process.env.E2E_DATA_DIR ?? path.join(import.meta.dirname, ".test-data", "e2e");

export interface BrowserSuite {
  testDir: string;
  testIgnore?: RegExp;
  project: string;
  /** The dashboard's DATA_DIR for the run. */
  dataDir: string;
  /** More environment for the dashboard. */
  env?: Record<string, string>;
}

/** A browser suite: Chromium against the production build and the sandbox on the ports above. */
export function browserSuite(suite: BrowserSuite) {
  return defineConfig({
    testDir: suite.testDir,
    testIgnore: suite.testIgnore,
    fullyParallel: false,
    workers: 2,
    forbidOnly: !!process.env.CI,
    retries: process.env.CI ? 1 : 0,
    timeout: 60_000,
    expect: { timeout: 10_000 },
    use: {
      baseURL,
      trace: "on-first-retry",
      // Not the host's: the browser's time zone and language are fixed (a test that wants another says so).
      timezoneId: "UTC",
      locale: "en-US",
      launchOptions: { executablePath: findChromium(), args: CHROMIUM_ARGS },
    },
    projects: [{ name: suite.project, use: { ...devices["Desktop Chrome"] } }],
    webServer: {
      command: "node scripts/run.mjs demo --no-build",
      url: `${baseURL}/api/health`,
      timeout: 120_000,
      reuseExistingServer: false,
      stdout: "pipe",
      stderr: "pipe",
      env: {
        // Playwright starts the command with the host's environment underneath: a CORE_URL, DATABASE_URL or
        // LOG_LEVEL set there would otherwise change what is tested.
        ...blankAppEnv(),
        PORT: String(PORT),
        SANDBOX_PORT: String(SANDBOX_PORT),
        DATA_DIR: suite.dataDir,
        // The sandbox's id counters with the suite's data, not in the developer's `.data/`.
        SANDBOX_DATA_DIR: path.join(suite.dataDir, "sandbox"),
        // The browser reaches the server through the loopback, which the server takes for a proxy: each worker
        // then sends its own X-Forwarded-For (e2e/fixtures.ts) and gets its own sign-in throttling and trail.
        TRUSTED_PROXIES: "127.0.0.1,::1",
        E2E: "1",
        ...suite.env,
      },
    },
  });
}

export default browserSuite({
  testDir: "./e2e",
  // Single sign-on has its own run against a test OpenID provider (playwright.oidc.config.ts).
  testIgnore: /[\\/]e2e[\\/]oidc[\\/]/,
  project: "chromium",
  dataDir,
  // A step-up counts for 5 s instead of 5 minutes, so e2e/step-up.spec.ts sees the dialog after a short wait.
  env: { STEP_UP_SECONDS: "5" },
});
