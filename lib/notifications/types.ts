// What the notifications API answers (shared with the bell). No personal data: a kind, a case's ref_id (the
// caller's own reference for the verification) and public id, a count, a time, and the member who acted (a
// colleague's name, as the case page shows it; never in a message sent out: lib/notifications/server/messages.ts).

import { inConnection } from "@/lib/shared/connection-path";

export const NOTIFICATION_KINDS = [
  // One per case, made before the digest (issue 32); old rows keep it, nothing makes it any more.
  "case_overdue",
  // The member's overdue cases, one notification per member and period (lib/notifications/server/digest.ts).
  "overdue_digest",
  "confirmation_waiting",
  "mention",
  "case_assigned",
  // To the member who recommended: a second member confirmed it, or did not (four eyes, lib/cases/server/outcome.ts).
  "outcome_confirmed",
  "outcome_rejected",
  // To the leads of the case's queue (else the members who assign cases): a member escalated it.
  "case_escalated",
  "factor_added",
  "factor_removed",
  // To the integration admins who may use a connection: its API key expires within 30 or 7 days, or has expired.
  "key_expiring",
  // To the privacy officers (privacy.requests): a titular's request is past its due time, told once per request.
  "privacy_request_late",
  // A monitoring alert (the ongoing screening, lib/monitoring/server/routing.ts) given to the member, automatically or
  // by who runs the queue; and, to its queue's leads, one that landed unassigned. About the case the alert is on.
  "monitoring_alert_assigned",
  "monitoring_alert_waiting",
] as const;

export type NotificationKind = (typeof NOTIFICATION_KINDS)[number];

/**
 * Kinds about the member's own account (a second factor added or removed): about no case (`casePublicId` is ""),
 * linking to the account page, told to the member alone (never to the shared chat channel).
 */
export const ACCOUNT_NOTIFICATION_KINDS: ReadonlySet<NotificationKind> = new Set(["factor_added", "factor_removed"]);

/** Kinds about a connection itself (its key's life): about no case, linking to the connections page under it. */
export const CONNECTION_NOTIFICATION_KINDS: ReadonlySet<NotificationKind> = new Set(["key_expiring"]);

/**
 * Kinds about a titular's request (LGPD art. 18): about no case and no connection (a request covers the person under
 * every connection), linking to the privacy page; no personal data (the request is named by nothing but its page).
 */
export const PRIVACY_NOTIFICATION_KINDS: ReadonlySet<NotificationKind> = new Set(["privacy_request_late"]);

/**
 * The page a notification opens: its own (a digest's filtered queue), else the case's, or the account page for an
 * account kind; under the connection of what it tells of (issue 33), so the link opens there from any page or email.
 */
export function notificationPath(
  kind: NotificationKind,
  subject: { casePublicId: string; link?: string | null; connectionId?: string | null },
): string {
  const page =
    subject.link ?? (ACCOUNT_NOTIFICATION_KINDS.has(kind) ? "/account" : `/verifications/${encodeURIComponent(subject.casePublicId)}`);
  return inConnection(page, subject.connectionId ?? null);
}

/** How a notification names its case: its ref_id, else the first 8 characters of its public id. */
export function caseLabel(item: { caseRef: string | null; casePublicId: string }): string {
  return item.caseRef || item.casePublicId.slice(0, 8);
}

export interface NotificationItem {
  id: number;
  kind: NotificationKind;
  /** The case told of ("" for a digest or an account kind). */
  casePublicId: string;
  /** The case's ref_id when the dashboard knows it; null otherwise (then the short public id names it). */
  caseRef: string | null;
  /** The member who did what it tells of (their name, else their email); null for a system event or a removed member. */
  actorName: string | null;
  /** A digest: how many of its cases are still overdue and not handled; null for the other kinds. */
  cases: number | null;
  /** The page it opens: the case's, the account's, or a digest's filtered queue, under its connection. */
  href: string;
  /** The connection of the case told of (issue 33): its id and name; null for an account kind. */
  connection: { id: string; name: string } | null;
  createdAt: string;
  read: boolean;
}

export interface NotificationsResponse {
  items: NotificationItem[];
  unread: number;
}

export interface MarkReadResponse {
  marked: number;
  unread: number;
}
