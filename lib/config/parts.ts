import "server-only";

import type { SharedValues } from "@/lib/config/schema";
import type { Config, MfaPolicy, SignInPolicy } from "@/lib/config/types";
import type { KeyRing } from "@/lib/keys/ring";

/* The parsed variables reshaped into the Config's areas, the same in both modes. */

export function sharedPart(values: SharedValues & { CHAT_WEBHOOK_URL?: string }) {
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
      privacyRequestDays: values.PRIVACY_REQUEST_RETENTION_DAYS,
      runHours: values.RETENTION_RUN_HOURS,
    },
    fourEyesIndependenceHours: values.FOUR_EYES_INDEPENDENCE_HOURS,
    privacyRequestDueDays: values.PRIVACY_REQUEST_DUE_DAYS,
    coafReportDeadlineDays: values.COAF_REPORT_DEADLINE_DAYS,
    cases: {
      slaHours: values.CASE_SLA_HOURS,
      redFlags: values.CASE_RED_FLAGS.split(",").filter(Boolean),
      riskThreshold: values.CASE_RISK_THRESHOLD,
      syncIntervalMinutes: values.CASE_SYNC_INTERVAL_MINUTES,
      syncFullHours: values.CASE_SYNC_FULL_HOURS,
      syncLeaseSeconds: values.CASE_SYNC_LEASE_SECONDS,
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
    operations: {
      metricsToken: values.METRICS_TOKEN,
      shutdownGraceSeconds: values.SHUTDOWN_GRACE_SECONDS,
      tracing: values.OTEL_EXPORTER_OTLP_ENDPOINT
        ? { endpoint: values.OTEL_EXPORTER_OTLP_ENDPOINT, serviceName: values.OTEL_SERVICE_NAME }
        : undefined,
    },
  };
}

export function signInPart(values: SharedValues, modeDefault: MfaPolicy): SignInPolicy {
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

export function corePart(values: SharedValues, url: string, apiKey: string): Config["core"] {
  return {
    url,
    apiKey,
    pageParam: values.CORE_PAGE_PARAM,
    maxPerPage: values.CORE_MAX_PER_PAGE,
    dateFilterFormat: values.CORE_DATE_FILTER_FORMAT,
    connectionName: values.CORE_CONNECTION_NAME,
    environment: values.CORE_ENVIRONMENT,
  };
}

export function partnersPart(
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

export function webhooksPart(values: SharedValues, signing: KeyRing | undefined): Config["webhooks"] {
  return {
    signing,
    signatureHeader: values.WEBHOOK_SIGNATURE_HEADER,
    deliveryHeader: values.WEBHOOK_DELIVERY_HEADER,
    toleranceSeconds: values.WEBHOOK_TOLERANCE_SECONDS,
    sweepSeconds: values.WEBHOOK_SWEEP_SECONDS,
  };
}
