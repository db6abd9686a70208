import type { KeyRing } from "@/lib/keys/ring";

export type Mode = "embedded" | "service";

/** The per-member quotas (lib/db/quotas.ts), each a limit per window. */
export type QuotaName = "lookup" | "kyc_start" | "export_rows" | "media_view" | "sms_send" | "cpf_search";
export type QuotaWindow = "minute" | "hour" | "day";
export type QuotaLimits = Record<QuotaName, Partial<Record<QuotaWindow, number>>>;

export interface Config {
  mode: Mode;
  core: {
    url: string;
    apiKey: string;
    pageParam: string;
    maxPerPage: number;
    dateFilterFormat: "date" | "datetime";
    /** The seeded connection's name and environment (lib/connections). */
    connectionName: string;
    environment: "sandbox" | "production";
  };
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
    privacyRequestDays: number;
    runHours: number;
  };
  cases: {
    slaHours: number;
    redFlags: string[];
    riskThreshold: number;
    syncIntervalMinutes: number;
    syncFullHours: number;
    syncLeaseSeconds: number;
  };
  /** Hours before a request within which its requester's grants disqualify a confirmer (FOUR_EYES_INDEPENDENCE_HOURS). */
  fourEyesIndependenceHours: number;
  /** Days from a titular request's receipt until it is due (PRIVACY_REQUEST_DUE_DAYS; LGPD art. 19 II). */
  privacyRequestDueDays: number;
  /** Days from a case's decision (its opening while undecided) until its COAF report is overdue (COAF_REPORT_DEADLINE_DAYS). */
  coafReportDeadlineDays: number;
  /** The search index's re-keying after an audit key rotation: verifications read per run, minutes between runs. */
  searchRekey: { batch: number; intervalMinutes: number };
  publicUrl: string | undefined;
  /** Email (SMTP) and chat (incoming webhook) for notifications; each undefined when not configured. */
  notifications: { smtpUrl: string | undefined; smtpFrom: string; smtpPlaintextLoopback: boolean; chatWebhookUrl: string | undefined };
  logLevel: "debug" | "info" | "warn" | "error" | "silent";
  /** The metrics route's bearer token (undefined: off) and the drain on SIGTERM (lib/server-lifecycle). */
  operations: {
    metricsToken: string | undefined;
    shutdownGraceSeconds: number;
    /** Where spans go (OTEL_EXPORTER_OTLP_ENDPOINT) and under which service name; undefined: no tracing. */
    tracing: { endpoint: string; serviceName: string } | undefined;
  };
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

/** The environment as read: variable name to value. */
export type Env = Record<string, string | undefined>;
