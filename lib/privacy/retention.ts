/*
 * The kinds of stored data a retention policy covers, and the shape of GET /api/privacy/retention. Shared:
 * no server imports. The days, reasons and what the pruner does for each kind are in
 * lib/privacy/server/policies.ts and lib/privacy/server/pruner.ts.
 */

export const RETENTION_KINDS = [
  "audit_events",
  "case_notes",
  "cases",
  "webhook_bodies",
  "webhook_deliveries",
  "search_index",
  "staff_sessions",
  "rate_limits",
  "notifications",
  "notification_outbox",
  "live_events",
  "auth_challenges",
  "document_crops",
  "upstream_calls",
  "privacy_requests",
  "suspicious_activity_reports",
] as const;

export type RetentionKind = (typeof RETENTION_KINDS)[number];

/** Rows removed (or, for webhook bodies and case notes, shortened or cleared) per kind by one run. */
export type RetentionCounts = Record<RetentionKind, number>;

export interface RetentionPolicyDto {
  kind: RetentionKind;
  /** Days kept (a fraction for live events, which are kept an hour). */
  days: number;
  reason: string;
}

export interface RetentionReportDto {
  policies: RetentionPolicyDto[];
  /** The latest `retention.prune` event of the audit trail, or null before the first run. */
  lastRun: { at: string; counts: Partial<RetentionCounts> } | null;
}
