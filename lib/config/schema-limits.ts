import "server-only";

import { z } from "zod";

import { positiveInt } from "@/lib/config/fields";

/** Per-member quotas and other rate limits, and the proxies whose forwarded address is believed. */
export const quotaVariables = {
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
};

/** How long each kind of stored data is kept, and the audit head's copy outside the database. */
export const retentionVariables = {
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
  // Closed titular requests (LGPD art. 19, art. 37), counted from closing: the proof they were answered in time.
  PRIVACY_REQUEST_RETENTION_DAYS: positiveInt.max(36_500).default(1825),
  // Hours between runs of the retention pruner (a lease makes one instance run it). 0: only `npm run retention:run`.
  RETENTION_RUN_HOURS: z.coerce
    .number()
    .int()
    .min(0)
    .max(24 * 7)
    .default(24),
};
