import path from "node:path";

import { defineConfig } from "@playwright/test";

import base from "./playwright.config";

/*
 * The single sign-on browser suite (e2e/oidc/): the same production build and sandbox as the main suite,
 * with the dashboard configured for a real OpenID provider that scripts/test.mjs starts first
 * (test/oidc-provider/) on a random port and names in OIDC_TEST_ISSUER. `npm test` runs it twice: the
 * provider conformant (claims from userinfo) and with the email in the ID token.
 *
 *   npm run test:e2e -- --oidc-only      both runs, nothing else
 */

const issuer = process.env.OIDC_TEST_ISSUER;
const clientSecret = process.env.OIDC_TEST_CLIENT_SECRET;
if (!issuer || !clientSecret) {
  throw new Error("OIDC_TEST_ISSUER is not set: run this suite through `npm run test:e2e -- --oidc-only`, which starts the provider");
}

const webServer = base.webServer as Exclude<typeof base.webServer, unknown[] | undefined>;

export default defineConfig({
  ...base,
  testDir: "./e2e/oidc",
  testIgnore: [],
  webServer: {
    ...webServer,
    env: {
      ...webServer.env,
      DATA_DIR: process.env.E2E_OIDC_DATA_DIR ?? path.join(__dirname, ".test-data", "e2e-oidc"),
      OIDC_ISSUER: issuer,
      OIDC_CLIENT_ID: process.env.OIDC_TEST_CLIENT_ID ?? "kyc-dashboard",
      OIDC_CLIENT_SECRET: clientSecret,
    },
  },
});
