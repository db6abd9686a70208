import { afterEach, describe, expect, it } from "vitest";

import { register } from "@/instrumentation";
import { ConfigError, loadConfig } from "@/lib/config";
import { restoreConfigEnv, stubConfigEnv } from "@/test/config";
import { stubTestEnvironment } from "@/test/db";

import { authOptions } from "./options";

const strong = "s".repeat(40);
const serviceEnv = {
  CORE_URL: "https://core.example.com",
  CORE_API_KEY: "live_key_0123456789",
  PARTNERS_URL: "https://partners.example.com",
  PARTNERS_USERNAME: "backoffice",
  PARTNERS_PASSWORD: "secret-password",
  PARTNERS_DOMAIN: "backoffice.example.com.br",
  PARTNERS_INTEGRATION_TOKEN: "integration-token-value",
  PARTNERS_WIDGET_INTEGRATION_TOKEN: "widget-token-value",
  DATABASE_URL: "postgres://app@127.0.0.1:1/kyc",
  NEXTAUTH_URL: "https://kyc.example.com",
  NEXTAUTH_SECRET: strong,
  MEDIA_SEAL_SECRET: strong,
  AUDIT_HASH_SECRET: strong,
  DATA_ENCRYPTION_SECRET: strong,
};

afterEach(restoreConfigEnv);

// next-auth keeps a provider's own id in its options until it merges them at runtime.
const providerId = (provider: { id: string; options?: unknown }) => (provider.options as { id?: string } | undefined)?.id ?? provider.id;

describe("production start-up and secrets", () => {
  it.each(["NEXTAUTH_SECRET", "MEDIA_SEAL_SECRET"])("stops when %s is shorter than 32 characters, naming it", async (name) => {
    expect(() => loadConfig({ ...serviceEnv, [name]: "x".repeat(31) })).toThrow(new RegExp(`${name}: must be at least 32 characters`));
    // The server's start-up hook reads the configuration before serving anything, so start-up fails.
    stubConfigEnv({ ...serviceEnv, [name]: "too-short", NEXT_RUNTIME: "nodejs" });
    const failure = await register().then(
      () => undefined,
      (error: unknown) => error,
    );
    expect(failure).toBeInstanceOf(ConfigError);
    expect((failure as ConfigError).message).toContain(`${name}: must be at least 32 characters`);
  });
});

describe("next-auth options", () => {
  it("use Secure, prefixed, HttpOnly, SameSite=Lax cookies in service mode", () => {
    stubConfigEnv(serviceEnv);
    const options = authOptions();
    expect(options.useSecureCookies).toBe(true);
    expect(options.cookies?.sessionToken?.name).toBe("__Host-next-auth.session-token");
    expect(options.cookies?.csrfToken?.name).toBe("__Host-next-auth.csrf-token");
    expect(options.cookies?.callbackUrl?.name).toBe("__Secure-next-auth.callback-url");
    for (const cookie of Object.values(options.cookies ?? {})) {
      expect(cookie.options).toMatchObject({ httpOnly: true, sameSite: "lax", secure: true, path: "/" });
    }
    expect(options.secret).toBe(strong);
  });

  it("use plain names over http in the embedded default, and no OIDC unless configured", () => {
    stubTestEnvironment();
    const options = authOptions();
    expect(options.useSecureCookies).toBe(false);
    expect(options.cookies?.sessionToken?.name).toBe("next-auth.session-token");
    expect(options.providers.map(providerId)).toEqual(["credentials", "passkey"]);
    expect(options.session).toMatchObject({ strategy: "jwt", maxAge: 12 * 60 * 60 });
  });

  it("add the OIDC provider when OIDC_* is set", () => {
    stubTestEnvironment({ OIDC_ISSUER: "https://id.example.com", OIDC_CLIENT_ID: "kyc", OIDC_CLIENT_SECRET: "client-secret" });
    const options = authOptions();
    expect(options.providers.map(providerId)).toEqual(["credentials", "passkey", "oidc"]);
    // State, nonce and PKCE on every authorization request; the ID token validated; the standard scopes.
    expect(options.providers[2]).toMatchObject({
      wellKnown: "https://id.example.com/.well-known/openid-configuration",
      checks: ["pkce", "state", "nonce"],
      idToken: true,
      authorization: { params: { scope: "openid email profile" } },
    });
  });

  it("redirect only within the dashboard", async () => {
    stubTestEnvironment();
    const redirect = authOptions().callbacks!.redirect!;
    const baseUrl = "http://localhost:3000";
    expect(await redirect({ url: "https://evil.example/", baseUrl })).toBe(`${baseUrl}/verifications`);
    expect(await redirect({ url: `${baseUrl}/admin/staff`, baseUrl })).toBe(`${baseUrl}/admin/staff`);
  });
});
