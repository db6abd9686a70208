import path from "node:path";

import { defineConfig, devices } from "@playwright/test";

import { CHROMIUM_ARGS, findChromium } from "./scripts/browser.mjs";

// The browser tests drive a production build (`npm run demo --no-build`) and the sandbox, on ports of
// their own so a running `npm run dev` is left alone.
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
        PORT: String(PORT),
        SANDBOX_PORT: String(SANDBOX_PORT),
        DATA_DIR: suite.dataDir,
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
});
