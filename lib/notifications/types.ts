// What the notifications API answers (shared with the bell). No personal data: a kind, a case's public id, a time.

export const NOTIFICATION_KINDS = [
  "case_overdue",
  "confirmation_waiting",
  "mention",
  "case_assigned",
  "factor_added",
  "factor_removed",
] as const;

export type NotificationKind = (typeof NOTIFICATION_KINDS)[number];

/**
 * Kinds about the member's own account (a second factor added or removed): about no case (`casePublicId` is ""),
 * linking to the account page, told to the member alone (never to the shared chat channel).
 */
export const ACCOUNT_NOTIFICATION_KINDS: ReadonlySet<NotificationKind> = new Set(["factor_added", "factor_removed"]);

/** The page a notification opens: the case's, or the account page for an account kind. */
export function notificationPath(kind: NotificationKind, casePublicId: string): string {
  return ACCOUNT_NOTIFICATION_KINDS.has(kind) ? "/account" : `/verifications/${encodeURIComponent(casePublicId)}`;
}

export interface NotificationItem {
  id: number;
  kind: NotificationKind;
  casePublicId: string;
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
