import "server-only";

import { config } from "@/lib/config";
import { LIVE_RETENTION_MS } from "@/lib/db/live";
import type { RetentionKind, RetentionPolicyDto } from "@/lib/privacy/retention";

/*
 * One retention policy per kind of stored data: how long it is kept, why (LGPD art. 15: processing ends when
 * its purpose is met, and art. 16: the data is then deleted unless a legal obligation or the controller's
 * exclusive use, anonymised, keeps it), and the variable that sets it (lib/config/). The pruner
 * (pruner.ts) applies them; docs/operations.md#retention lists them for people.
 *
 * Exports keep no table of their own: an export's record is its `*.export` audit event (with the per-person
 * hashes), so it lives as long as the audit events.
 */

/** Six months: the least the audit events are kept by the scheduled pruner (Marco Civil art. 15). */
export const AUDIT_MIN_DAYS = 183;

export interface RetentionPolicy extends RetentionPolicyDto {
  /** The configuration variable, or null when the kind's life is fixed by the feature itself. */
  variable: string | null;
}

/** Upstream-call counts (lib/db/upstream-calls.ts): numbers only, kept 400 days; not configurable. */
export const UPSTREAM_CALLS_DAYS = 400;

/** Live events are kept an hour for the stream's replay (lib/db/live.ts); not configurable. */
export const LIVE_EVENTS_DAYS = LIVE_RETENTION_MS / 86_400_000;

const REASONS: Record<RetentionKind, string> = {
  audit_events:
    "Who did what with whose data, from where: kept at least 6 months as access records (Marco Civil da Internet art. 15) and, by default, 5 years to prove lawful processing (LGPD art. 16 I, art. 37); exports' records are audit events.",
  case_notes:
    "Free text about a person, needed while the case is worked and for a review after it closes; then cleared (LGPD art. 15 I, art. 16), the decision itself staying with the case.",
  cases:
    "The KYC decision record (recommendation, reasons, who decided), kept 5 years after closing for anti-money-laundering record keeping (Lei 9.613/98 art. 10; LGPD art. 16 I), then removed with its history.",
  webhook_bodies:
    "The provider's raw event is only needed until it is processed; after that only the fields processing reads are kept (LGPD art. 6 III, necessity; art. 16).",
  webhook_deliveries:
    "Proof a delivery arrived, for troubleshooting with the provider; the audit trail keeps its receipt, so the row goes afterwards (LGPD art. 15 I).",
  search_index:
    "Ref_id and CPF hash to find a verification and the same person again; removed when not seen for this long and no case is open (LGPD art. 15 I, art. 16).",
  staff_sessions:
    "A sign-in's address, browser and times: access records kept 6 months (Marco Civil da Internet art. 15) once the session has ended, then removed.",
  rate_limits: "Counters and locks against abuse; meaningless once their window or lock has expired, removed then (LGPD art. 15 I).",
  notifications: "Tells a member about a case (no personal data of the person); removed some time after being read (LGPD art. 15 I).",
  notification_outbox:
    "Messages to a member's email or chat; removed once sent or given up and kept a while for delivery problems (LGPD art. 15 I).",
  live_events: "Topics and ids for the live stream's reconnect replay; an hour is all the replay needs (LGPD art. 15 I).",
  auth_challenges: "One-time passkey challenges; useless once expired, removed then (LGPD art. 15 I).",
  document_crops:
    "Coordinates of a document's portrait drawn for a case's face comparison (no image); kept as long as cases, unless a case on it is still open (LGPD art. 15 I).",
  upstream_calls:
    "Counts of calls to the verification service per day, route or job and kind (no personal data): the provider key's quota as a budget, kept about a year to compare seasons, then removed.",
  privacy_requests:
    "A titular's request and its answer (kind, channel, dates, who answered, with what; the CPF only as its keyed hash, contact and answer sealed): proof the request was answered within its deadline (LGPD art. 19, art. 37; ANPD resolution 18/2024), kept 5 years after closing, as long as the ANPD may still act on it (Lei 9.873/99 art. 1), then removed; open requests never.",
  suspicious_activity_reports:
    "A suspicious-activity report to COAF and its SISCOAF protocol (summary sealed): kept five years from filing, as anti-money-laundering law requires (Lei 9.613/98 art. 10 §2, art. 11), then removed; exempt from erasure (LGPD art. 16 I, legal obligation) and never shown to the person (art. 11 §2); drafts never removed.",
};

/** Five years from filing (Lei 9.613/98 art. 10 §2): fixed by law, not configurable. */
export const SUSPICIOUS_ACTIVITY_DAYS = 1826;

export function retentionPolicies(cfg = config()): RetentionPolicy[] {
  const days: Record<RetentionKind, [number, string | null]> = {
    // Never under six months here, whatever AUDIT_RETENTION_DAYS says (Marco Civil art. 15).
    audit_events: [Math.max(cfg.auditRetentionDays, AUDIT_MIN_DAYS), "AUDIT_RETENTION_DAYS"],
    case_notes: [cfg.retention.caseNoteDays, "CASE_NOTE_RETENTION_DAYS"],
    cases: [cfg.retention.caseDays, "CASE_RETENTION_DAYS"],
    webhook_bodies: [cfg.retention.webhookBodyDays, "WEBHOOK_BODY_RETENTION_DAYS"],
    webhook_deliveries: [cfg.retention.webhookDeliveryDays, "WEBHOOK_DELIVERY_RETENTION_DAYS"],
    search_index: [cfg.retention.searchIndexDays, "SEARCH_INDEX_RETENTION_DAYS"],
    staff_sessions: [cfg.retention.sessionDays, "SESSION_RETENTION_DAYS"],
    // Counted after expiry: an expired window or lock has no use left.
    rate_limits: [0, null],
    notifications: [cfg.retention.notificationDays, "NOTIFICATION_RETENTION_DAYS"],
    notification_outbox: [cfg.retention.notificationOutboxDays, "NOTIFICATION_OUTBOX_RETENTION_DAYS"],
    live_events: [LIVE_EVENTS_DAYS, null],
    auth_challenges: [0, null],
    document_crops: [cfg.retention.documentCropDays, "DOCUMENT_CROP_RETENTION_DAYS"],
    // Counts only: a fixed year and a month, so this year's figures meet last year's same month.
    upstream_calls: [UPSTREAM_CALLS_DAYS, null],
    privacy_requests: [cfg.retention.privacyRequestDays, "PRIVACY_REQUEST_RETENTION_DAYS"],
    suspicious_activity_reports: [SUSPICIOUS_ACTIVITY_DAYS, null],
  };
  return (Object.keys(REASONS) as RetentionKind[]).map((kind) => ({
    kind,
    days: days[kind][0],
    reason: REASONS[kind],
    variable: days[kind][1],
  }));
}
