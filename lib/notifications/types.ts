// What the notifications API answers (shared with the bell). No personal data: a kind, a case's public id, a time.

export const NOTIFICATION_KINDS = ["case_overdue", "confirmation_waiting", "mention", "case_assigned"] as const;

export type NotificationKind = (typeof NOTIFICATION_KINDS)[number];

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
