import { startTestOidcProvider } from "./provider";

/*
 * Runs the test OpenID provider until stopped (scripts/test.mjs starts it before the OIDC browser suite):
 *
 *   OIDC_TEST_APP_URL=http://localhost:3103 OIDC_TEST_CLIENT_SECRET=… [OIDC_TEST_CLAIMS=userinfo|id-token] \
 *     node --import tsx test/oidc-provider/main.ts
 *
 * It listens on a random port of 127.0.0.1 and prints `test OIDC provider listening on <issuer>`.
 */

const appUrl = process.env.OIDC_TEST_APP_URL;
const clientSecret = process.env.OIDC_TEST_CLIENT_SECRET;
const mode = process.env.OIDC_TEST_CLAIMS ?? "userinfo";
if (!appUrl || !clientSecret || (mode !== "userinfo" && mode !== "id-token")) {
  console.error("set OIDC_TEST_APP_URL, OIDC_TEST_CLIENT_SECRET and OIDC_TEST_CLAIMS=userinfo|id-token");
  process.exit(2);
}

const provider = await startTestOidcProvider({
  clientId: process.env.OIDC_TEST_CLIENT_ID ?? "kyc-dashboard",
  clientSecret,
  appUrl,
  emailInIdToken: mode === "id-token",
});
console.log(`test OIDC provider listening on ${provider.issuer} (claims: ${mode})`);

for (const signal of ["SIGINT", "SIGTERM"] as const) {
  process.on(signal, () => void provider.close().then(() => process.exit(0)));
}
