import fs from "node:fs";
import os from "node:os";
import path from "node:path";

import { afterEach, describe, expect, it } from "vitest";

import { ConfigError, configWarnings, loadConfig, SANDBOX_DEFAULTS } from "@/lib/config";
import { singleKeyRing } from "@/lib/keys/ring";

const tempDirs: string[] = [];
function tempDataDir(): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "kyc-config-"));
  tempDirs.push(dir);
  return dir;
}
afterEach(() => {
  for (const dir of tempDirs.splice(0)) fs.rmSync(dir, { recursive: true, force: true });
});

const strong = "x".repeat(40);
const serviceEnv = {
  CORE_URL: "https://core.example.com/",
  CORE_API_KEY: "live_key_0123456789",
  PARTNERS_URL: "https://partners.example.com",
  PARTNERS_USERNAME: "backoffice",
  PARTNERS_PASSWORD: "secret-password",
  PARTNERS_DOMAIN: "backoffice.example.com.br",
  PARTNERS_INTEGRATION_TOKEN: "0b9a4c1e-5d2f-4e8a-9c71-3f6d2b8e4a10",
  DATABASE_URL: "postgres://app@db.internal:5432/kyc",
  NEXTAUTH_URL: "https://kyc.example.com",
  NEXTAUTH_SECRET: strong,
  MEDIA_SEAL_SECRET: strong,
  AUDIT_HASH_SECRET: strong,
  DATA_ENCRYPTION_SECRET: strong,
  WEBHOOK_SIGNING_SECRET: strong,
  PARTNERS_WIDGET_INTEGRATION_TOKEN: "5c1d2e3f-4a5b-4c6d-8e7f-9a0b1c2d3e4f",
};

function problemsOf(env: Record<string, string>): string[] {
  try {
    loadConfig(env);
  } catch (error) {
    if (error instanceof ConfigError) return error.problems;
    throw error;
  }
  throw new Error("expected a ConfigError");
}

describe("embedded default", () => {
  it("with no environment resolves to the sandbox, PGlite and generated secrets", () => {
    const dataDir = tempDataDir();
    const config = loadConfig({ DATA_DIR: dataDir });
    expect(config.mode).toBe("embedded");
    expect(config.core.url).toBe("http://127.0.0.1:4010/core");
    expect(config.partners.url).toBe("http://127.0.0.1:4010/partners");
    expect(config.database.url).toBeUndefined();
    expect(config.seedDemoAccounts).toBe(true);
    expect(config.secrets.nextAuth.current.secret.length).toBeGreaterThanOrEqual(32);
    expect(new Set(Object.values(config.secrets).map((ring) => ring.current.secret)).size).toBe(4);
    // Generated once: a second load (another process, a restart) reads the same secrets.
    expect(loadConfig({ DATA_DIR: dataDir }).secrets).toEqual(config.secrets);
    expect(fs.statSync(path.join(dataDir, "secrets.json")).mode & 0o077).toBe(0);
  });

  it("generates the webhook signing and data encryption secrets, and adds them to a secrets file written before they existed without touching the others", () => {
    const dataDir = tempDataDir();
    const older = { nextAuth: "a".repeat(43), mediaSeal: "b".repeat(43), auditHash: "c".repeat(43) };
    fs.writeFileSync(path.join(dataDir, "secrets.json"), JSON.stringify(older), { mode: 0o600 });
    const config = loadConfig({ DATA_DIR: dataDir });
    expect(config.secrets).toMatchObject({
      nextAuth: singleKeyRing(older.nextAuth),
      mediaSeal: singleKeyRing(older.mediaSeal),
      auditHash: singleKeyRing(older.auditHash),
    });
    const added = [config.webhooks.signing?.current.secret, config.secrets.dataEncryption.current.secret];
    for (const secret of added) {
      expect(secret?.length).toBeGreaterThanOrEqual(32);
      expect(Object.values(older)).not.toContain(secret);
    }
    const again = loadConfig({ DATA_DIR: dataDir });
    expect([again.webhooks.signing?.current.secret, again.secrets.dataEncryption.current.secret]).toEqual(added);
    expect(config.webhooks).toMatchObject({
      signatureHeader: "X-Legitimuz-Signature",
      deliveryHeader: "X-Legitimuz-Delivery",
      toleranceSeconds: 300,
    });
    // An explicit value wins over the generated one.
    expect(loadConfig({ DATA_DIR: dataDir, WEBHOOK_SIGNING_SECRET: "w".repeat(20) }).webhooks.signing).toEqual(
      singleKeyRing("w".repeat(20)),
    );
  });

  it("follows SANDBOX_URL and keeps each contract assumption's default", () => {
    const config = loadConfig({ DATA_DIR: tempDataDir(), SANDBOX_URL: "http://127.0.0.1:5999/" });
    expect(config.core.url).toBe("http://127.0.0.1:5999/core");
    expect(config.core.pageParam).toBe("page");
    expect(config.partners.domainHeader).toBe("Origin");
    expect(config.partners.jwtPath).toBe("/external/generate_jwt");
    expect(config.displayTimeZone).toBe("America/Sao_Paulo");
  });
});

describe("service mode", () => {
  it("parses a complete environment", () => {
    const config = loadConfig(serviceEnv);
    expect(config.mode).toBe("service");
    expect(config.core.url).toBe("https://core.example.com");
    expect(config.seedDemoAccounts).toBe(false);
    expect(config.secrets.mediaSeal).toEqual(singleKeyRing(strong));
  });

  it("takes the provider's webhook signing secret when given, refuses a short one, and runs without one", () => {
    expect(loadConfig({ ...serviceEnv, WEBHOOK_SIGNING_SECRET: "provider-secret-0123" }).webhooks.signing).toEqual(
      singleKeyRing("provider-secret-0123"),
    );
    expect(problemsOf({ ...serviceEnv, WEBHOOK_SIGNING_SECRET: "short" })).toEqual([
      "WEBHOOK_SIGNING_SECRET: must be at least 16 characters",
    ]);
    const { WEBHOOK_SIGNING_SECRET: _secret, ...withoutSecret } = serviceEnv;
    expect(loadConfig(withoutSecret).webhooks.signing).toBeUndefined();
  });

  it("lists every missing variable in one message", () => {
    const problems = problemsOf({ CORE_URL: "https://core.example.com" });
    for (const name of ["CORE_API_KEY", "PARTNERS_URL", "PARTNERS_PASSWORD", "DATABASE_URL", "NEXTAUTH_SECRET", "MEDIA_SEAL_SECRET"]) {
      expect(problems).toContain(`${name}: is required`);
    }
  });

  it("refuses to start without NEXTAUTH_URL, naming it: the Host header must not decide links, passkeys' origin or sign-out", () => {
    const { NEXTAUTH_URL: _url, ...bare } = serviceEnv;
    expect(problemsOf(bare)).toEqual(["NEXTAUTH_URL: is required"]);
    expect(new Set(problemsOf({ ...serviceEnv, NEXTAUTH_URL: "kyc.example.com" }).map((problem) => problem.split(":")[0]))).toEqual(
      new Set(["NEXTAUTH_URL"]),
    );
    expect(loadConfig(serviceEnv).publicUrl).toBe("https://kyc.example.com");
    // The embedded default still runs without it (npm run dev sets it to the local address).
    expect(loadConfig({ DATA_DIR: tempDataDir() }).publicUrl).toBeUndefined();
  });

  it("names each secret shorter than 32 characters", () => {
    const problems = problemsOf({ ...serviceEnv, NEXTAUTH_SECRET: "short", MEDIA_SEAL_SECRET: "x".repeat(31) });
    expect(problems).toEqual(["NEXTAUTH_SECRET: must be at least 32 characters", "MEDIA_SEAL_SECRET: must be at least 32 characters"]);
  });

  it("refuses malformed values with the variable named", () => {
    const problems = problemsOf({ ...serviceEnv, CORE_URL: "ftp://core", DISPLAY_TIME_ZONE: "Mars/Olympus", DATABASE_URL: "mysql://x" });
    expect(problems.map((problem) => problem.split(":")[0]).sort()).toEqual(["CORE_URL", "DATABASE_URL", "DISPLAY_TIME_ZONE"]);
  });
});

describe("single sign-on settings", () => {
  const oidcEnv = { OIDC_ISSUER: "https://id.example.com/realms/staff/", OIDC_CLIENT_ID: "kyc", OIDC_CLIENT_SECRET: "client-secret" };

  it("requires verified emails unless OIDC_ALLOW_UNVERIFIED_EMAIL says otherwise, and warns when it does", () => {
    const strict = loadConfig({ ...serviceEnv, ...oidcEnv });
    expect(strict.oidc).toEqual({
      issuer: "https://id.example.com/realms/staff",
      clientId: "kyc",
      clientSecret: "client-secret",
      allowUnverifiedEmail: false,
    });
    expect(configWarnings(strict)).toEqual([]);
    const lax = loadConfig({ ...serviceEnv, ...oidcEnv, OIDC_ALLOW_UNVERIFIED_EMAIL: "true" });
    expect(lax.oidc?.allowUnverifiedEmail).toBe(true);
    expect(configWarnings(lax)).toEqual([expect.stringContaining("OIDC_ALLOW_UNVERIFIED_EMAIL is on")]);
    expect(loadConfig({ ...serviceEnv, ...oidcEnv, OIDC_ALLOW_UNVERIFIED_EMAIL: "0" }).oidc?.allowUnverifiedEmail).toBe(false);
  });

  it("asks second factors of privileged members with the service and of nobody with the sandbox, unless told", () => {
    const service = loadConfig(serviceEnv);
    expect(service.signIn).toMatchObject({
      mfaRequired: "privileged",
      mfaRequiredDefaulted: true,
      passwordSignIn: true,
      oneTimePasswordHours: 72,
    });
    expect(loadConfig({ DATA_DIR: tempDataDir() }).signIn.mfaRequired).toBe("off");
    expect(loadConfig({ DATA_DIR: tempDataDir(), MFA_REQUIRED: "all" }).signIn).toMatchObject({
      mfaRequired: "all",
      mfaRequiredDefaulted: false,
    });
    const off = loadConfig({ ...serviceEnv, MFA_REQUIRED: "off", PASSWORD_SIGN_IN: "off", OIDC_TRUSTED_AMR: "mfa, hwk" });
    expect(off.signIn.oidcTrustedAmr).toEqual(["mfa", "hwk"]);
    expect(configWarnings(off)).toEqual([
      expect.stringContaining("MFA_REQUIRED is off"),
      expect.stringContaining("PASSWORD_SIGN_IN is off"),
    ]);
    expect(problemsOf({ ...serviceEnv, MFA_REQUIRED: "some" })).toEqual(["MFA_REQUIRED: must be all, privileged or off"]);
  });

  it("refuses anything but true or false for OIDC_ALLOW_UNVERIFIED_EMAIL", () => {
    expect(problemsOf({ ...serviceEnv, ...oidcEnv, OIDC_ALLOW_UNVERIFIED_EMAIL: "yes" })).toEqual([
      "OIDC_ALLOW_UNVERIFIED_EMAIL: must be true or false",
    ]);
  });

  it("refuses a partial OIDC configuration, naming what is missing, in both modes", () => {
    const partial = { OIDC_ISSUER: oidcEnv.OIDC_ISSUER, OIDC_CLIENT_ID: "kyc" };
    expect(problemsOf({ ...serviceEnv, ...partial })).toEqual(["OIDC_CLIENT_SECRET: is required when any OIDC_* variable is set"]);
    expect(problemsOf({ DATA_DIR: tempDataDir(), OIDC_CLIENT_SECRET: "client-secret" })).toEqual([
      "OIDC_ISSUER: is required when any OIDC_* variable is set",
      "OIDC_CLIENT_ID: is required when any OIDC_* variable is set",
    ]);
    expect(loadConfig({ DATA_DIR: tempDataDir() }).oidc).toBeUndefined();
  });
});

describe("email", () => {
  it("lets SMTP_PLAINTEXT_LOOPBACK lift the STARTTLS requirement only for a server on this machine, naming it otherwise", () => {
    const dataDir = tempDataDir();
    expect(loadConfig({ DATA_DIR: dataDir, SMTP_URL: "smtp://u:p@mail.example.com:587" }).notifications.smtpPlaintextLoopback).toBe(false);
    for (const host of ["127.0.0.1:2525", "localhost:25", "[::1]:2525"]) {
      expect(
        loadConfig({ DATA_DIR: dataDir, SMTP_URL: `smtp://u:p@${host}`, SMTP_PLAINTEXT_LOOPBACK: "on" }).notifications
          .smtpPlaintextLoopback,
      ).toBe(true);
    }
    expect(problemsOf({ ...serviceEnv, SMTP_URL: "smtp://u:p@mail.example.com:587", SMTP_PLAINTEXT_LOOPBACK: "on" })).toEqual([
      expect.stringMatching(/^SMTP_PLAINTEXT_LOOPBACK: may be on only when SMTP_URL's host is a loopback address/),
    ]);
    expect(problemsOf({ DATA_DIR: dataDir, SMTP_URL: "smtp://u:p@10.0.0.5", SMTP_PLAINTEXT_LOOPBACK: "on" })).toHaveLength(1);
  });
});

describe("start-up warnings", () => {
  it("warns when webhooks cannot be verified", () => {
    expect(configWarnings(loadConfig(serviceEnv))).toEqual([]);
    const { WEBHOOK_SIGNING_SECRET: _webhook, ...bare } = serviceEnv;
    expect(configWarnings(loadConfig(bare))).toEqual([expect.stringContaining("WEBHOOK_SIGNING_SECRET is unset")]);
  });
});

describe("the widget token", () => {
  it("refuses to start with the real service when PARTNERS_WIDGET_INTEGRATION_TOKEN is unset, naming it", () => {
    const { PARTNERS_WIDGET_INTEGRATION_TOKEN: _widget, ...bare } = serviceEnv;
    expect(problemsOf(bare)).toEqual(["PARTNERS_WIDGET_INTEGRATION_TOKEN: is required"]);
  });

  it("refuses to start with the real service when it equals the lookup token, naming it", () => {
    expect(problemsOf({ ...serviceEnv, PARTNERS_WIDGET_INTEGRATION_TOKEN: serviceEnv.PARTNERS_INTEGRATION_TOKEN })).toEqual([
      expect.stringMatching(/^PARTNERS_WIDGET_INTEGRATION_TOKEN: must differ from PARTNERS_INTEGRATION_TOKEN/),
    ]);
  });

  it("starts with a dedicated one, and the sandbox default keeps its own demo widget token", () => {
    expect(loadConfig(serviceEnv).partners.widgetIntegrationToken).toBe(serviceEnv.PARTNERS_WIDGET_INTEGRATION_TOKEN);
    const embedded = loadConfig({ DATA_DIR: tempDataDir() }).partners;
    expect(embedded.widgetIntegrationToken).toBe(SANDBOX_DEFAULTS.partnersWidgetIntegrationToken);
    expect(embedded.widgetIntegrationToken).not.toBe(embedded.integrationToken);
  });
});
