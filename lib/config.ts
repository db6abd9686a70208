import "server-only";

import { randomBytes } from "node:crypto";
import fs from "node:fs";
import path from "node:path";

import { z } from "zod";

import { KeyRingError, parseKeyRing, type KeyRing } from "@/lib/keys/ring";

/*
 * The one place configuration is read. Two modes:
 *
 * - embedded (no upstream variable set): the sandbox on 127.0.0.1:4010 with its documented demo
 *   credentials, PGlite in `.data/`, secrets generated once into `.data/secrets.json`;
 * - service (CORE_URL or PARTNERS_URL set): every upstream variable and secret is required, and start-up
 *   stops with one message listing every problem.
 *
 * Variables marked ASSUMPTION stand for something the service contract does not show; each default is
 * what the sandbox implements, and docs/assumptions.md lists them all (the anchor after each marker).
 */

const MIN_SECRET_LENGTH = 32;

const httpUrl = z
  .string()
  .url()
  .refine((value) => /^https?:\/\//.test(value), "must be an http(s) URL")
  .transform((value) => value.replace(/\/+$/, ""));
/** A key ring (lib/keys/ring.ts): `id:secret` entries, newest first, or one plain secret; each key guess-proof. */
const keyRing = (minLength: number) =>
  z.string().transform((value, context) => {
    try {
      return parseKeyRing(value, minLength);
    } catch (error) {
      if (!(error instanceof KeyRingError)) throw error;
      context.addIssue({ code: "custom", message: error.message });
      return z.NEVER;
    }
  });
const secret = keyRing(MIN_SECRET_LENGTH);
const headerName = z.string().regex(/^[A-Za-z0-9-]+$/, "must be an HTTP header name");
const positiveInt = z.coerce.number().int().positive();
// The provider chooses its signing secrets; only a guess-proof minimum is asked of them.
const webhookSecret = keyRing(16);

// The sandbox's demo credentials (sandbox/README.md). Only ever used in embedded mode.
export const SANDBOX_DEFAULTS = {
  url: "http://127.0.0.1:4010",
  coreApiKey: "sbx_core_view_media",
  partnersUsername: "backoffice",
  partnersPassword: "sandbox-partner-password",
  partnersDomain: "backoffice.sandbox.local",
  partnersIntegrationToken: "0b9a4c1e-5d2f-4e8a-9c71-3f6d2b8e4a10",
  // A second integration of the same account, used only in widget addresses (never the lookup token).
  partnersWidgetIntegrationToken: "3d6b9e2a-7c14-4f85-a0d3-5e8f1b2c4a97",
} as const;

const sharedSchema = z.object({
  // ASSUMPTION (docs/assumptions.md#core-page-param): name of the query parameter that selects a page of
  // GET /public/validations-persons.
  CORE_PAGE_PARAM: z
    .string()
    .regex(/^[a-z_]+$/)
    .default("page"),
  // ASSUMPTION (docs/assumptions.md#core-max-per-page): the upper page size the list asks for (the contract shows no maximum).
  CORE_MAX_PER_PAGE: positiveInt.max(1000).default(100),
  // ASSUMPTION (docs/assumptions.md#core-date-filter): format of the list's `from`/`to` filters: a calendar date
  // (YYYY-MM-DD) or an ISO 8601 instant.
  CORE_DATE_FILTER_FORMAT: z.enum(["date", "datetime"]).default("date"),
  // ASSUMPTION (docs/assumptions.md#partners-domain-header): header carrying the client's domain on partners calls
  // other than the federal revenue lookup and the SMS calls (those two always send Origin).
  PARTNERS_DOMAIN_HEADER: headerName.default("Origin"),
  // ASSUMPTION (docs/assumptions.md#login): unit of the login `expiration` field is seconds; the dashboard asks
  // for this lifetime.
  PARTNERS_TOKEN_TTL_SECONDS: positiveInt.max(86_400).default(3600),
  // ASSUMPTION (docs/assumptions.md#sms-jwt-request): the /external/generate_jwt request (path, relative to
  // PARTNERS_URL) and the JSON field holding the JWT in its answer.
  PARTNERS_JWT_PATH: z.string().startsWith("/").default("/external/generate_jwt"),
  PARTNERS_JWT_RESPONSE_FIELD: z.string().min(1).default("token"),
  // Header names of the SMS operations (docs/assumptions.md#sms-headers): the JWT (sent as "Bearer <jwt>") and
  // the integration token; the defaults are what the provider's API reference shows (sms/validate-code).
  PARTNERS_SMS_JWT_HEADER: headerName.default("Authorization"),
  PARTNERS_SMS_TOKEN_HEADER: headerName.default("x-api-key"),
  UPSTREAM_TIMEOUT_MS: positiveInt.max(120_000).default(10_000),
  UPSTREAM_READ_RETRIES: z.coerce.number().int().min(0).max(5).default(2),
  // One total deadline per upstream read, across its retries: every answer comes within it (+ ~1 s).
  UPSTREAM_READ_DEADLINE_MS: positiveInt.max(120_000).default(10_000),
  DISPLAY_TIME_ZONE: z
    .string()
    .refine((zone) => {
      try {
        new Intl.DateTimeFormat("en", { timeZone: zone });
        return true;
      } catch {
        return false;
      }
    }, "must be an IANA time zone")
    .default("America/Sao_Paulo"),
  DATA_DIR: z.string().min(1).default(".data"),
  // Per-member quotas (lib/db/quotas.ts, docs/security.md#quotas): counted in the database so they hold across
  // instances; each refusal is a 429 with Retry-After, audited as denied.
  LOOKUP_LIMIT_PER_MINUTE: positiveInt.default(10),
  LOOKUP_LIMIT_PER_DAY: positiveInt.default(200),
  KYC_START_LIMIT_PER_MINUTE: positiveInt.default(5),
  KYC_START_LIMIT_PER_DAY: positiveInt.default(100),
  EXPORT_ROWS_PER_DAY: positiveInt.default(5000),
  MEDIA_VIEWS_PER_HOUR: positiveInt.default(300),
  SMS_SENDS_PER_HOUR: positiveInt.default(10),
  SMS_SENDS_PER_DAY: positiveInt.default(50),
  // CPF searches by a member without personal_data.unmasked: a masked CPF leaves 1,000 candidates, so an
  // unlimited search would unmask it by trying them (docs/security.md#quotas).
  CPF_SEARCH_LIMIT_PER_HOUR: positiveInt.default(20),
  CPF_SEARCH_LIMIT_PER_DAY: positiveInt.default(60),
  // The audit page shows members with at least this many CPF searches that found nothing within the window.
  CPF_SEARCH_MISS_ALERT: positiveInt.default(10),
  CPF_SEARCH_MISS_WINDOW_HOURS: positiveInt.max(24 * 31).default(24),
  // How long a newly created integration key can still be revealed (sealed cookie) after a reload.
  INTEGRATION_KEY_REVEAL_SECONDS: positiveInt.max(3600).default(600),
  // Private domain suffixes integration keys may be bound to (comma-separated, e.g. "corp.example.net").
  // Empty: only public host names; IP literals and localhost are never accepted.
  INTEGRATION_PRIVATE_DOMAINS: z
    .string()
    .default("")
    .transform((value) =>
      value
        .split(",")
        .map((entry) =>
          entry
            .trim()
            .toLowerCase()
            .replace(/^\*?\./, ""),
        )
        .filter(Boolean),
    ),
  // ASSUMPTION (docs/assumptions.md#sms-resend): the wait before an SMS code may be sent again to the same phone
  // (the sandbox refuses 30 s).
  SMS_RESEND_COOLDOWN_SECONDS: positiveInt.max(3600).default(30),
  // Addresses of reverse proxies whose X-Forwarded-For is believed (comma-separated). Empty: none.
  TRUSTED_PROXIES: z.string().default(""),
  AUDIT_RETENTION_DAYS: positiveInt.default(1825),
  // The copy of the audit trail's newest signed head kept where the database role cannot change it
  // (lib/audit-trail/server/head-file.ts, docs/operations.md#the-trails-end): a file path. Unset: beside the data
  // folder in embedded mode (`<DATA_DIR>-audit-head.json`), under the OS state folder with DATABASE_URL
  // ($XDG_STATE_HOME or ~/.local/state, `kyc-dashboard/audit-head-<database>.json`); "off": the log line only.
  AUDIT_HEAD_FILE: z.string().trim().optional(),
  // Minutes between signed head checkpoints (a lease makes one instance write each); 0: only after prunes and
  // `npm run audit:verify`.
  AUDIT_HEAD_CHECKPOINT_MINUTES: z.coerce
    .number()
    .int()
    .min(0)
    .max(24 * 60)
    .default(10),
  // Retention of every other kind of stored data (lib/privacy/server/policies.ts, docs/operations.md#retention):
  // days each kind is kept before the daily pruner (npm run retention:run) removes or shortens it. Defaults
  // follow the purpose of each kind (LGPD art. 15 and 16); none is required by the service's contract.
  // Case notes' and outcome comments' text, counted from the case's closing (closed cases only).
  CASE_NOTE_RETENTION_DAYS: positiveInt.max(36_500).default(365),
  // Closed cases with their whole history, counted from the closing (five years: anti-money-laundering records).
  CASE_RETENTION_DAYS: positiveInt.max(36_500).default(1825),
  // Processed webhook bodies are cut to the fields processing reads after this many days; the rows go later.
  WEBHOOK_BODY_RETENTION_DAYS: positiveInt.max(36_500).default(30),
  WEBHOOK_DELIVERY_RETENTION_DAYS: positiveInt.max(36_500).default(180),
  // Search-index rows (ref_id, CPF hash) not seen again for this long, and without an open case.
  SEARCH_INDEX_RETENTION_DAYS: positiveInt.max(36_500).default(1825),
  // Ended staff sessions (revoked, or idle past any timeout); they hold the address and browser of a sign-in,
  // an access record Marco Civil art. 15 asks to keep six months.
  SESSION_RETENTION_DAYS: positiveInt.min(183).max(36_500).default(183),
  // Read notifications (the bell), and the outbox's messages once sent or given up.
  NOTIFICATION_RETENTION_DAYS: positiveInt.max(36_500).default(90),
  NOTIFICATION_OUTBOX_RETENTION_DAYS: positiveInt.max(36_500).default(30),
  // Portrait crops (coordinates only) of verifications without an open case, counted from when they were drawn.
  DOCUMENT_CROP_RETENTION_DAYS: positiveInt.max(36_500).default(1825),
  // Hours between runs of the retention pruner (a lease makes one instance run it). 0: only `npm run retention:run`.
  RETENTION_RUN_HOURS: z.coerce
    .number()
    .int()
    .min(0)
    .max(24 * 7)
    .default(24),
  // Case work (lib/cases): hours until an open case is due; red flags that open a case besides `review`
  // and raise its priority; the risk score above which a case is flagged; upstream statuses that close a
  // case (by default the decided ones, approved and reproved: the provider's status list,
  // docs/assumptions.md#case-final-statuses); minutes between scheduled syncs of the review list (0: only on
  // demand).
  CASE_SLA_HOURS: positiveInt.max(24 * 90).default(24),
  CASE_RED_FLAGS: z
    .string()
    .regex(/^((pep|restrictive_list|low_facematch|high_risk)(,|$))*$/, "must list pep, restrictive_list, low_facematch, high_risk")
    .default("pep,restrictive_list,low_facematch,high_risk"),
  // On the service's 0..100 score scale (lib/upstream/model/verification.ts); the default is the detail's "high risk" band.
  CASE_RISK_THRESHOLD: z.coerce.number().int().min(0).max(100).default(70),
  CASE_SYNC_INTERVAL_MINUTES: z.coerce
    .number()
    .int()
    .min(0)
    .max(24 * 60)
    .default(15),
  // Re-keying the search index after an audit key rotation (lib/cases/server/rekey.ts, docs/operations.md#rotating-the-audit-key):
  // verifications read again from the service per run (each one a call on the provider key's quota; 0 turns the job
  // off), and minutes between runs (a lease makes one instance run it).
  SEARCH_REKEY_BATCH: z.coerce.number().int().min(0).max(5000).default(100),
  SEARCH_REKEY_INTERVAL_MINUTES: z.coerce
    .number()
    .int()
    .min(1)
    .max(24 * 60)
    .default(60),
  // Hours between full passes of the review list (lib/cases/server/sync.ts); the runs between are incremental
  // (new verifications and the events since the last run). 0: every run is a full pass.
  CASE_SYNC_FULL_HOURS: z.coerce
    .number()
    .int()
    .min(0)
    .max(24 * 30)
    .default(24),
  // Four eyes between people who predate the request (docs/security.md#four-eyes): an erasure or a case outcome is
  // not confirmed by an account its requester created, re-enabled or gave its role after the request or within
  // this many hours before it. 0: only after the request.
  FOUR_EYES_INDEPENDENCE_HOURS: z.coerce
    .number()
    .int()
    .min(0)
    .max(24 * 365)
    .default(24),
  // The dashboard's public address (next-auth redirects; https there means Secure, prefixed cookies).
  NEXTAUTH_URL: httpUrl.optional(),
  LOG_LEVEL: z.enum(["debug", "info", "warn", "error", "silent"]).default("info"),
  // Second factors (lib/auth/server/factors.ts, docs/security.md#second-factors): who must have one. Unset: `privileged`
  // with the real service, `off` with the embedded sandbox (said at start-up).
  MFA_REQUIRED: z.enum(["all", "privileged", "off"], { message: "must be all, privileged or off" }).optional(),
  // `off` closes the password form: members sign in through single sign-on or a passkey only.
  PASSWORD_SIGN_IN: z.enum(["on", "off"], { message: "must be on or off" }).default("on"),
  // Whether a member who signs in through single sign-on only may add a passkey and sign in with it. Off: the
  // identity provider stays the one door (removing someone there ends their access here).
  SSO_ONLY_PASSKEYS: z.enum(["on", "off"], { message: "must be on or off" }).default("off"),
  // How long an invited member's one-time password works (it also works for one sign-in only).
  ONE_TIME_PASSWORD_HOURS: positiveInt.max(24 * 30).default(72),
  // How long a verified second factor counts as a fresh step-up for sensitive actions.
  STEP_UP_SECONDS: positiveInt.max(3600).default(300),
  // `amr` values of the identity provider's ID token that count as a second factor (comma-separated, e.g.
  // "mfa,hwk,otp"). Empty: a single sign-on member adds a local factor when the policy asks for one.
  OIDC_TRUSTED_AMR: z.string().default(""),
  // Single sign-on: all three, or none (a partial set is refused rather than silently ignored).
  OIDC_ISSUER: httpUrl.optional(),
  OIDC_CLIENT_ID: z.string().min(1).optional(),
  OIDC_CLIENT_SECRET: z.string().min(1).optional(),
  // Accept an email the identity provider does not mark `email_verified: true`. Off by default: with it on,
  // anyone who can set their own email at the provider can take the staff account holding that email.
  OIDC_ALLOW_UNVERIFIED_EMAIL: z
    .enum(["true", "false", "1", "0"], { message: "must be true or false" })
    .default("false")
    .transform((value) => value === "true" || value === "1"),
  // ASSUMPTION (docs/assumptions.md#webhook-signature; Legitimuz-Tech/legitimuz-examples pocs/*/webhook receivers;
  // the core documentation leaves the scheme unpublished): header names of the webhook signature (`t=<unix>,v1=<hex HMAC-SHA256>`) and of the
  // delivery id, and the tolerance window on the signed timestamp.
  WEBHOOK_SIGNATURE_HEADER: headerName.default("X-Legitimuz-Signature"),
  WEBHOOK_DELIVERY_HEADER: headerName.default("X-Legitimuz-Delivery"),
  WEBHOOK_TOLERANCE_SECONDS: positiveInt.max(3600).default(300),
  // How often each instance sweeps stored deliveries that were not processed yet (a crash, a failed listener).
  WEBHOOK_SWEEP_SECONDS: positiveInt.max(3600).default(30),
  // Notifications out of the app (lib/notifications/server): an SMTP server for email, e.g.
  // smtp://user:pass@host:587 (smtps:// for TLS from the first byte), and the sender's address. Unset: no email.
  SMTP_URL: z
    .string()
    .regex(/^smtps?:\/\/[^/?#\s]+/, "must be an smtp:// or smtps:// URL")
    .optional(),
  SMTP_FROM: z.string().email("must be an email address").default("kyc-backoffice@localhost"),
  // smtp:// with credentials must upgrade with STARTTLS (the password never goes in clear, even when the server or
  // someone in between does not offer it). `on` lifts that for a test server on this machine only: refused unless
  // SMTP_URL's host is a loopback address (smtpProblems).
  SMTP_PLAINTEXT_LOOPBACK: z.enum(["on", "off"], { message: "must be on or off" }).default("off"),
});

// A Slack-compatible incoming webhook (POST {text}) for chat notifications. Unset: no chat message. The
// address is a secret (whoever holds it posts to the channel): https only with the real service; the
// embedded mode also takes http, for a local receiver.
const chatWebhookUrl = (schemes: RegExp, message: string) => z.string().url("must be a URL").regex(schemes, message).optional();

/** SMTP_PLAINTEXT_LOOPBACK=on with an SMTP_URL whose host is not this machine. */
function smtpProblems(env: Env): string[] {
  if (env.SMTP_PLAINTEXT_LOOPBACK !== "on" || !env.SMTP_URL) return [];
  let host = "";
  try {
    host = new URL(env.SMTP_URL).hostname;
  } catch {
    // SMTP_URL's own rule names it.
  }
  return /^(localhost|127(\.\d{1,3}){3}|\[::1\])$/i.test(host)
    ? []
    : ["SMTP_PLAINTEXT_LOOPBACK: may be on only when SMTP_URL's host is a loopback address (a test server on this machine)"];
}

const OIDC_VARIABLES = ["OIDC_ISSUER", "OIDC_CLIENT_ID", "OIDC_CLIENT_SECRET"] as const;

/** The OIDC variables that are missing while another one is set (all three, or none). */
function incompleteOidc(env: Env): string[] {
  const missing = OIDC_VARIABLES.filter((name) => !env[name]);
  return missing.length === OIDC_VARIABLES.length ? [] : missing.map((name) => `${name}: is required when any OIDC_* variable is set`);
}

/**
 * The widget address reaches the person's phone with its token in the query string: with the real service a
 * dedicated token is required, never the one that also runs CPF lookups. (The unset case is the schema's
 * "is required"; this adds the equal case.)
 */
function widgetTokenProblems(env: Env): string[] {
  const widget = env.PARTNERS_WIDGET_INTEGRATION_TOKEN;
  return widget !== undefined && widget === env.PARTNERS_INTEGRATION_TOKEN
    ? ["PARTNERS_WIDGET_INTEGRATION_TOKEN: must differ from PARTNERS_INTEGRATION_TOKEN (a dedicated integration for the widget address)"]
    : [];
}

const serviceSchema = sharedSchema.extend({
  CORE_URL: httpUrl,
  CORE_API_KEY: z.string().min(8, "must be the service's API key"),
  PARTNERS_URL: httpUrl,
  PARTNERS_USERNAME: z.string().min(1),
  PARTNERS_PASSWORD: z.string().min(1),
  PARTNERS_DOMAIN: z.string().min(1),
  PARTNERS_INTEGRATION_TOKEN: z.string().min(8),
  /**
   * The integration token put in the widget address that reaches the person's phone (the `token` query
   * parameter of get-sdk-url's `url`). A dedicated, least-privileged integration: whoever holds the link
   * reads it, so start-up refuses it unset or equal to the lookup token (widgetTokenProblems).
   */
  PARTNERS_WIDGET_INTEGRATION_TOKEN: z.string().min(8),
  DATABASE_URL: z.string().regex(/^postgres(ql)?:\/\//, "must be a postgres:// URL"),
  // Required with the real service: without it the request's Host header would decide the links in emails, the
  // passkeys' origin and where signing out returns.
  NEXTAUTH_URL: httpUrl,
  NEXTAUTH_SECRET: secret,
  MEDIA_SEAL_SECRET: secret,
  AUDIT_HASH_SECRET: secret,
  // Encrypts case notes and comments at rest (lib/cases/server), never leaves the server.
  DATA_ENCRYPTION_SECRET: secret,
  // Issued by the provider when the webhook destination is registered (shown once). Optional: without it
  // the receiver refuses every delivery (503) and start-up warns, the rest of the dashboard still works.
  WEBHOOK_SIGNING_SECRET: webhookSecret.optional(),
  CHAT_WEBHOOK_URL: chatWebhookUrl(/^https:\/\//, "must be an https:// URL"),
});

const embeddedSchema = sharedSchema.extend({
  // `npm run bench -- load` turns on its bare-proxy route in the server it starts (app/api/bench/proxy).
  BENCH_ROUTES: z.enum(["on", "off"]).default("off"),
  CHAT_WEBHOOK_URL: chatWebhookUrl(/^https?:\/\//, "must be an http:// or https:// URL"),
  // Where the sandbox listens; tests start one on a random port and point here.
  SANDBOX_URL: httpUrl.default(SANDBOX_DEFAULTS.url),
  // The embedded default may still use PostgreSQL (tests do, through TEST_DATABASE_URL).
  DATABASE_URL: z
    .string()
    .regex(/^postgres(ql)?:\/\//, "must be a postgres:// URL")
    .optional(),
  CORE_API_KEY: z.string().min(8).default(SANDBOX_DEFAULTS.coreApiKey),
  NEXTAUTH_SECRET: secret.optional(),
  MEDIA_SEAL_SECRET: secret.optional(),
  AUDIT_HASH_SECRET: secret.optional(),
  DATA_ENCRYPTION_SECRET: secret.optional(),
  WEBHOOK_SIGNING_SECRET: webhookSecret.optional(),
});

export type Mode = "embedded" | "service";

/** The per-member quotas (lib/db/quotas.ts), each a limit per window. */
export type QuotaName = "lookup" | "kyc_start" | "export_rows" | "media_view" | "sms_send" | "cpf_search";
export type QuotaWindow = "minute" | "hour" | "day";
export type QuotaLimits = Record<QuotaName, Partial<Record<QuotaWindow, number>>>;

export interface Config {
  mode: Mode;
  core: { url: string; apiKey: string; pageParam: string; maxPerPage: number; dateFilterFormat: "date" | "datetime" };
  partners: {
    url: string;
    username: string;
    password: string;
    domain: string;
    integrationToken: string;
    /** Token for the widget address (get-sdk-url): a dedicated integration, never the lookup token. */
    widgetIntegrationToken: string;
    domainHeader: string;
    tokenTtlSeconds: number;
    jwtPath: string;
    jwtResponseField: string;
    smsJwtHeader: string;
    smsTokenHeader: string;
  };
  upstream: { timeoutMs: number; readRetries: number; readDeadlineMs: number };
  database: { url: string | undefined; dataDir: string };
  /** Each a key ring (lib/keys/ring.ts): the current key makes, every key still opens or verifies. */
  secrets: { nextAuth: KeyRing; mediaSeal: KeyRing; auditHash: KeyRing; dataEncryption: KeyRing };
  webhooks: {
    /** Undefined only in service mode without WEBHOOK_SIGNING_SECRET: every delivery is then refused. */
    signing: KeyRing | undefined;
    signatureHeader: string;
    deliveryHeader: string;
    toleranceSeconds: number;
    sweepSeconds: number;
  };
  oidc: { issuer: string; clientId: string; clientSecret: string; allowUnverifiedEmail: boolean } | undefined;
  displayTimeZone: string;
  lookupLimits: { perMinute: number; perDay: number };
  /** Per-member quotas by name and window (lib/db/quotas.ts). */
  quotas: QuotaLimits;
  /** Members with at least `alert` CPF searches finding nothing within `windowHours` are shown on the audit page. */
  cpfSearchMisses: { alert: number; windowHours: number };
  integrationKeyRevealSeconds: number;
  integrationPrivateDomains: string[];
  smsResendCooldownSeconds: number;
  trustedProxies: string[];
  auditRetentionDays: number;
  /** The trail's head copied outside the database: the file's path ("off": none; unset: the default place). */
  auditHead: { file: string | undefined; checkpointMinutes: number };
  /** Days each kind of stored data is kept (lib/privacy/server/policies.ts), and hours between pruner runs. */
  retention: {
    caseNoteDays: number;
    caseDays: number;
    webhookBodyDays: number;
    webhookDeliveryDays: number;
    searchIndexDays: number;
    sessionDays: number;
    notificationDays: number;
    notificationOutboxDays: number;
    documentCropDays: number;
    runHours: number;
  };
  cases: { slaHours: number; redFlags: string[]; riskThreshold: number; syncIntervalMinutes: number; syncFullHours: number };
  /** Hours before a request within which its requester's grants disqualify a confirmer (FOUR_EYES_INDEPENDENCE_HOURS). */
  fourEyesIndependenceHours: number;
  /** The search index's re-keying after an audit key rotation: verifications read per run, minutes between runs. */
  searchRekey: { batch: number; intervalMinutes: number };
  publicUrl: string | undefined;
  /** Email (SMTP) and chat (incoming webhook) for notifications; each undefined when not configured. */
  notifications: { smtpUrl: string | undefined; smtpFrom: string; smtpPlaintextLoopback: boolean; chatWebhookUrl: string | undefined };
  logLevel: "debug" | "info" | "warn" | "error" | "silent";
  /** Demo staff accounts are seeded only while the upstream is the sandbox. */
  seedDemoAccounts: boolean;
  /** Bench-only routes (GET /api/bench/proxy): BENCH_ROUTES=on, embedded mode only; never with the real service. */
  benchRoutes: boolean;
  signIn: SignInPolicy;
}

/** Who needs a second factor (docs/security.md#second-factors). */
export type MfaPolicy = "all" | "privileged" | "off";

export interface SignInPolicy {
  mfaRequired: MfaPolicy;
  /** Whether MFA_REQUIRED was set, or chosen by the mode (start-up says which). */
  mfaRequiredDefaulted: boolean;
  passwordSignIn: boolean;
  /** A single-sign-on-only member may enrol and sign in with a passkey (SSO_ONLY_PASSKEYS=on). */
  ssoOnlyPasskeys: boolean;
  oneTimePasswordHours: number;
  oidcTrustedAmr: string[];
  stepUpSeconds: number;
}

export class ConfigError extends Error {
  constructor(readonly problems: string[]) {
    super(`Invalid configuration:\n${problems.map((problem) => `  - ${problem}`).join("\n")}`);
    this.name = "ConfigError";
  }
}

type Env = Record<string, string | undefined>;

/** Upstream variables whose presence switches to service mode. */
const SERVICE_SWITCHES = ["CORE_URL", "PARTNERS_URL"] as const;

export function loadConfig(rawEnv: Env = process.env): Config {
  // An empty variable counts as unset, so `FOO=` in a .env file does not fail a `min(1)` check obscurely.
  const env: Env = Object.fromEntries(Object.entries(rawEnv).filter(([, value]) => value !== undefined && value !== ""));
  const mode: Mode = SERVICE_SWITCHES.some((name) => env[name]) ? "service" : "embedded";

  if (mode === "service") {
    const parsed = serviceSchema.safeParse(env);
    const problems = [...incompleteOidc(env), ...widgetTokenProblems(env), ...smtpProblems(env)];
    if (!parsed.success || problems.length) throw new ConfigError([...(parsed.success ? [] : describeIssues(parsed.error)), ...problems]);
    const values = parsed.data;
    return {
      ...sharedPart(values),
      mode,
      core: corePart(values, values.CORE_URL, values.CORE_API_KEY),
      partners: partnersPart(values, {
        url: values.PARTNERS_URL,
        username: values.PARTNERS_USERNAME,
        password: values.PARTNERS_PASSWORD,
        domain: values.PARTNERS_DOMAIN,
        integrationToken: values.PARTNERS_INTEGRATION_TOKEN,
        widgetIntegrationToken: values.PARTNERS_WIDGET_INTEGRATION_TOKEN,
      }),
      database: { url: values.DATABASE_URL, dataDir: values.DATA_DIR },
      secrets: {
        nextAuth: values.NEXTAUTH_SECRET,
        mediaSeal: values.MEDIA_SEAL_SECRET,
        auditHash: values.AUDIT_HASH_SECRET,
        dataEncryption: values.DATA_ENCRYPTION_SECRET,
      },
      webhooks: webhooksPart(values, values.WEBHOOK_SIGNING_SECRET),
      seedDemoAccounts: false,
      benchRoutes: false,
      signIn: signInPart(values, "privileged"),
    };
  }

  const parsed = embeddedSchema.safeParse(env);
  const problems = [...incompleteOidc(env), ...smtpProblems(env)];
  if (!parsed.success || problems.length) throw new ConfigError([...(parsed.success ? [] : describeIssues(parsed.error)), ...problems]);
  const values = parsed.data;
  const generated =
    values.NEXTAUTH_SECRET &&
    values.MEDIA_SEAL_SECRET &&
    values.AUDIT_HASH_SECRET &&
    values.DATA_ENCRYPTION_SECRET &&
    values.WEBHOOK_SIGNING_SECRET
      ? undefined
      : generatedSecrets(values.DATA_DIR);
  return {
    ...sharedPart(values),
    mode,
    core: corePart(values, `${values.SANDBOX_URL}/core`, values.CORE_API_KEY),
    partners: partnersPart(values, {
      url: `${values.SANDBOX_URL}/partners`,
      username: SANDBOX_DEFAULTS.partnersUsername,
      password: SANDBOX_DEFAULTS.partnersPassword,
      domain: SANDBOX_DEFAULTS.partnersDomain,
      integrationToken: SANDBOX_DEFAULTS.partnersIntegrationToken,
      widgetIntegrationToken: SANDBOX_DEFAULTS.partnersWidgetIntegrationToken,
    }),
    database: { url: values.DATABASE_URL, dataDir: values.DATA_DIR },
    secrets: {
      nextAuth: values.NEXTAUTH_SECRET ?? generated!.nextAuth,
      mediaSeal: values.MEDIA_SEAL_SECRET ?? generated!.mediaSeal,
      auditHash: values.AUDIT_HASH_SECRET ?? generated!.auditHash,
      dataEncryption: values.DATA_ENCRYPTION_SECRET ?? generated!.dataEncryption,
    },
    // scripts/run.mjs hands the same value to the sandbox, which signs its deliveries with it.
    webhooks: webhooksPart(values, values.WEBHOOK_SIGNING_SECRET ?? generated!.webhookSigning),
    seedDemoAccounts: true,
    benchRoutes: values.BENCH_ROUTES === "on",
    signIn: signInPart(values, "off"),
  };
}

type SharedValues = z.infer<typeof sharedSchema>;

function sharedPart(values: SharedValues & { CHAT_WEBHOOK_URL?: string }) {
  const oidc =
    values.OIDC_ISSUER && values.OIDC_CLIENT_ID && values.OIDC_CLIENT_SECRET
      ? {
          issuer: values.OIDC_ISSUER,
          clientId: values.OIDC_CLIENT_ID,
          clientSecret: values.OIDC_CLIENT_SECRET,
          allowUnverifiedEmail: values.OIDC_ALLOW_UNVERIFIED_EMAIL,
        }
      : undefined;
  return {
    upstream: {
      timeoutMs: values.UPSTREAM_TIMEOUT_MS,
      readRetries: values.UPSTREAM_READ_RETRIES,
      readDeadlineMs: values.UPSTREAM_READ_DEADLINE_MS,
    },
    oidc,
    displayTimeZone: values.DISPLAY_TIME_ZONE,
    lookupLimits: { perMinute: values.LOOKUP_LIMIT_PER_MINUTE, perDay: values.LOOKUP_LIMIT_PER_DAY },
    quotas: {
      lookup: { minute: values.LOOKUP_LIMIT_PER_MINUTE, day: values.LOOKUP_LIMIT_PER_DAY },
      kyc_start: { minute: values.KYC_START_LIMIT_PER_MINUTE, day: values.KYC_START_LIMIT_PER_DAY },
      export_rows: { day: values.EXPORT_ROWS_PER_DAY },
      media_view: { hour: values.MEDIA_VIEWS_PER_HOUR },
      sms_send: { hour: values.SMS_SENDS_PER_HOUR, day: values.SMS_SENDS_PER_DAY },
      cpf_search: { hour: values.CPF_SEARCH_LIMIT_PER_HOUR, day: values.CPF_SEARCH_LIMIT_PER_DAY },
    },
    cpfSearchMisses: { alert: values.CPF_SEARCH_MISS_ALERT, windowHours: values.CPF_SEARCH_MISS_WINDOW_HOURS },
    integrationKeyRevealSeconds: values.INTEGRATION_KEY_REVEAL_SECONDS,
    integrationPrivateDomains: values.INTEGRATION_PRIVATE_DOMAINS,
    smsResendCooldownSeconds: values.SMS_RESEND_COOLDOWN_SECONDS,
    trustedProxies: values.TRUSTED_PROXIES.split(",")
      .map((entry) => entry.trim())
      .filter(Boolean),
    auditRetentionDays: values.AUDIT_RETENTION_DAYS,
    auditHead: { file: values.AUDIT_HEAD_FILE || undefined, checkpointMinutes: values.AUDIT_HEAD_CHECKPOINT_MINUTES },
    retention: {
      caseNoteDays: values.CASE_NOTE_RETENTION_DAYS,
      caseDays: values.CASE_RETENTION_DAYS,
      webhookBodyDays: values.WEBHOOK_BODY_RETENTION_DAYS,
      webhookDeliveryDays: values.WEBHOOK_DELIVERY_RETENTION_DAYS,
      searchIndexDays: values.SEARCH_INDEX_RETENTION_DAYS,
      sessionDays: values.SESSION_RETENTION_DAYS,
      notificationDays: values.NOTIFICATION_RETENTION_DAYS,
      notificationOutboxDays: values.NOTIFICATION_OUTBOX_RETENTION_DAYS,
      documentCropDays: values.DOCUMENT_CROP_RETENTION_DAYS,
      runHours: values.RETENTION_RUN_HOURS,
    },
    fourEyesIndependenceHours: values.FOUR_EYES_INDEPENDENCE_HOURS,
    cases: {
      slaHours: values.CASE_SLA_HOURS,
      redFlags: values.CASE_RED_FLAGS.split(",").filter(Boolean),
      riskThreshold: values.CASE_RISK_THRESHOLD,
      syncIntervalMinutes: values.CASE_SYNC_INTERVAL_MINUTES,
      syncFullHours: values.CASE_SYNC_FULL_HOURS,
    },
    searchRekey: { batch: values.SEARCH_REKEY_BATCH, intervalMinutes: values.SEARCH_REKEY_INTERVAL_MINUTES },
    publicUrl: values.NEXTAUTH_URL,
    notifications: {
      smtpUrl: values.SMTP_URL,
      smtpFrom: values.SMTP_FROM,
      smtpPlaintextLoopback: values.SMTP_PLAINTEXT_LOOPBACK === "on",
      chatWebhookUrl: values.CHAT_WEBHOOK_URL,
    },
    logLevel: values.LOG_LEVEL,
  };
}

function signInPart(values: SharedValues, modeDefault: MfaPolicy): SignInPolicy {
  return {
    mfaRequired: values.MFA_REQUIRED ?? modeDefault,
    mfaRequiredDefaulted: values.MFA_REQUIRED === undefined,
    passwordSignIn: values.PASSWORD_SIGN_IN === "on",
    ssoOnlyPasskeys: values.SSO_ONLY_PASSKEYS === "on",
    oneTimePasswordHours: values.ONE_TIME_PASSWORD_HOURS,
    stepUpSeconds: values.STEP_UP_SECONDS,
    oidcTrustedAmr: values.OIDC_TRUSTED_AMR.split(",")
      .map((entry) => entry.trim())
      .filter(Boolean),
  };
}

function corePart(values: SharedValues, url: string, apiKey: string): Config["core"] {
  return {
    url,
    apiKey,
    pageParam: values.CORE_PAGE_PARAM,
    maxPerPage: values.CORE_MAX_PER_PAGE,
    dateFilterFormat: values.CORE_DATE_FILTER_FORMAT,
  };
}

function partnersPart(
  values: SharedValues,
  account: Pick<Config["partners"], "url" | "username" | "password" | "domain" | "integrationToken" | "widgetIntegrationToken">,
): Config["partners"] {
  return {
    ...account,
    domainHeader: values.PARTNERS_DOMAIN_HEADER,
    tokenTtlSeconds: values.PARTNERS_TOKEN_TTL_SECONDS,
    jwtPath: values.PARTNERS_JWT_PATH,
    jwtResponseField: values.PARTNERS_JWT_RESPONSE_FIELD,
    smsJwtHeader: values.PARTNERS_SMS_JWT_HEADER,
    smsTokenHeader: values.PARTNERS_SMS_TOKEN_HEADER,
  };
}

function webhooksPart(values: SharedValues, signing: KeyRing | undefined): Config["webhooks"] {
  return {
    signing,
    signatureHeader: values.WEBHOOK_SIGNATURE_HEADER,
    deliveryHeader: values.WEBHOOK_DELIVERY_HEADER,
    toleranceSeconds: values.WEBHOOK_TOLERANCE_SECONDS,
    sweepSeconds: values.WEBHOOK_SWEEP_SECONDS,
  };
}

function describeIssues(error: z.ZodError): string[] {
  return error.issues.map((issue) => {
    const name = issue.path.join(".") || "(environment)";
    // A missing required variable reads better as "is required" than as zod's type message.
    const missing = issue.code === "invalid_type" && issue.input === undefined;
    return `${name}: ${missing ? "is required" : issue.message}`;
  });
}

// Each value is a ring's variable value (one plain secret, or `id:secret,…` once `npm run keys:rotate` added a key).
const generatedSecretsSchema = z.object({
  nextAuth: z.string(),
  mediaSeal: z.string(),
  auditHash: z.string(),
  dataEncryption: z.string(),
  webhookSigning: z.string(),
});
type GeneratedSecretValues = z.infer<typeof generatedSecretsSchema>;
type GeneratedSecrets = Record<keyof GeneratedSecretValues, KeyRing>;

/** Where embedded mode keeps its generated rings (`npm run keys:rotate` rewrites it). */
export function generatedSecretsFile(dataDir: string): string {
  return path.resolve(dataDir, "secrets.json");
}

function parseGenerated(values: GeneratedSecretValues): GeneratedSecrets {
  const parse = (value: string) => parseKeyRing(value, MIN_SECRET_LENGTH);
  return {
    nextAuth: parse(values.nextAuth),
    mediaSeal: parse(values.mediaSeal),
    auditHash: parse(values.auditHash),
    dataEncryption: parse(values.dataEncryption),
    webhookSigning: parse(values.webhookSigning),
  };
}

const makeSecret = () => randomBytes(32).toString("base64url");

/**
 * Embedded mode only: secrets made once and kept in the git-ignored data folder, so restarts keep sessions.
 * A file written before a secret existed (the webhook signing secret came later) keeps its other values
 * and gains the missing one: regenerating them would end every session and break the audit chain's key.
 */
function generatedSecrets(dataDir: string): GeneratedSecrets {
  const file = generatedSecretsFile(dataDir);
  if (fs.existsSync(file)) {
    const raw = JSON.parse(fs.readFileSync(file, "utf8")) as Record<string, unknown>;
    const stored = generatedSecretsSchema.safeParse(raw);
    if (stored.success) return parseGenerated(stored.data);
    const completed = generatedSecretsSchema.safeParse({ webhookSigning: makeSecret(), dataEncryption: makeSecret(), ...raw });
    if (completed.success) {
      fs.writeFileSync(file, JSON.stringify(completed.data, null, 2), { mode: 0o600 });
      return parseGenerated(completed.data);
    }
  }
  const made: GeneratedSecretValues = {
    nextAuth: makeSecret(),
    mediaSeal: makeSecret(),
    auditHash: makeSecret(),
    dataEncryption: makeSecret(),
    webhookSigning: makeSecret(),
  };
  fs.mkdirSync(path.dirname(file), { recursive: true });
  // `wx` so two processes starting together keep the first file written instead of racing.
  try {
    fs.writeFileSync(file, JSON.stringify(made, null, 2), { mode: 0o600, flag: "wx" });
    return parseGenerated(made);
  } catch {
    return parseGenerated(generatedSecretsSchema.parse(JSON.parse(fs.readFileSync(file, "utf8"))));
  }
}

/** Settings that are valid but weaken a guarantee: start-up logs each one (instrumentation.ts). */
export function configWarnings(cfg: Config): string[] {
  const warnings: string[] = [];
  if (cfg.oidc?.allowUnverifiedEmail) {
    warnings.push(
      "OIDC_ALLOW_UNVERIFIED_EMAIL is on: single sign-on accepts emails the identity provider has not verified; " +
        "anyone able to set their own email there can use the staff account holding that email",
    );
  }
  if (cfg.mode === "service" && cfg.signIn.mfaRequired === "off") {
    warnings.push(
      "MFA_REQUIRED is off: members who see biometrics or unmasked data, or manage staff and keys, may sign in with a password alone",
    );
  }
  if (!cfg.signIn.passwordSignIn && !cfg.oidc) {
    warnings.push("PASSWORD_SIGN_IN is off and no single sign-on is configured: only members who already have a passkey can sign in");
  }
  if (!cfg.webhooks.signing) {
    warnings.push("WEBHOOK_SIGNING_SECRET is unset: every webhook delivery is refused (503) and nothing learns of changes at the service");
  }
  return warnings;
}

// The parsed configuration is process-wide state, on globalThis (`__kycConfig`) like the process database
// (lib/db/client.ts): Next bundles the start-up hook (instrumentation.ts) and the route handlers separately,
// and every bundle must read one configuration, parsed once. Emptying the slot makes the next call read the
// environment again; test support does so after stubbing variables (test/config.ts).
const processConfig = globalThis as typeof globalThis & { __kycConfig?: Config };

/** The process's configuration, parsed once. */
export function config(): Config {
  processConfig.__kycConfig ??= loadConfig();
  return processConfig.__kycConfig;
}
