import "server-only";

import { and, eq, inArray } from "drizzle-orm";

import type { Permission } from "@/lib/auth/permissions";
import { staffAccess } from "@/lib/auth/server/staff-access";
import { staffUsers } from "@/lib/auth/server/tables";
import { config } from "@/lib/config";
import type { Database } from "@/lib/db/client";
import { publishLive } from "@/lib/db/live";
import { ACCOUNT_NOTIFICATION_KINDS, type NotificationKind } from "@/lib/notifications/types";

import { messageFor } from "./messages";
import { notificationOutbox, notifications } from "./tables";

/*
 * Making notifications: one row per member, kind, case and dedupe key, inserted with ON CONFLICT DO NOTHING
 * on that unique key, so the same thing told twice (a retried job, two instances, the same note processed
 * again) is told once. Each new row queues an email to its member when SMTP_URL is set; one chat message
 * per call that made anything new when CHAT_WEBHOOK_URL is set (the channel is shared: three leads told of
 * one overdue case are one message there, not three). Run it inside the caller's transaction: the
 * notifications and their messages commit with what they tell of, or not at all; then `kickOutbox()`.
 */

export interface NotifyInput {
  userIds: readonly string[];
  kind: NotificationKind;
  /** The case told of; "" for an account kind (ACCOUNT_NOTIFICATION_KINDS). */
  casePublicId: string;
  /** What makes two notifications of one kind and case different (a note's entry id for a mention). */
  dedupeKey?: string;
  actorId?: string | null;
  /** The request's origin, for the link when no public address (NEXTAUTH_URL) is configured. */
  origin?: string;
}

export async function notify(db: Database, input: NotifyInput): Promise<{ created: number }> {
  const userIds = [...new Set(input.userIds)];
  if (userIds.length === 0) return { created: 0 };
  const rows = await db
    .insert(notifications)
    .values(
      userIds.map((userId) => ({
        userId,
        kind: input.kind,
        casePublicId: input.casePublicId,
        dedupeKey: input.dedupeKey ?? "",
        actorId: input.actorId ?? null,
      })),
    )
    .onConflictDoNothing({ target: [notifications.userId, notifications.kind, notifications.casePublicId, notifications.dedupeKey] })
    .returning({ id: notifications.id, userId: notifications.userId });
  if (rows.length === 0) return { created: 0 };
  // Each member's open tabs hear of it when this commits (lib/db/live.ts): the notification's id only.
  for (const row of rows) await publishLive(db, { topic: "notification", payload: { id: row.id }, userId: row.userId });

  const { notifications: channels, publicUrl } = config();
  const message = messageFor(input.kind, input.casePublicId, publicUrl ?? input.origin);
  const outbox: (typeof notificationOutbox.$inferInsert)[] = [];
  if (channels.smtpUrl) {
    const recipients = await db
      .select({ email: staffUsers.email })
      .from(staffUsers)
      .where(
        and(
          inArray(
            staffUsers.id,
            rows.map((row) => row.userId),
          ),
          eq(staffUsers.disabled, false),
        ),
      );
    for (const { email } of recipients) outbox.push({ channel: "email", recipient: email, ...message });
  }
  // The chat channel is shared: a member's own account events go to them alone.
  if (channels.chatWebhookUrl && !ACCOUNT_NOTIFICATION_KINDS.has(input.kind)) outbox.push({ channel: "chat", recipient: null, ...message });
  if (outbox.length) await db.insert(notificationOutbox).values(outbox);
  return { created: rows.length };
}

export interface Member {
  id: string;
  email: string;
  name: string;
}

/** Active members holding a permission (through a built-in role, or a live custom role). */
export async function membersHolding(db: Database, permission: Permission, among?: readonly string[]): Promise<Member[]> {
  return (await staffAccess(db, among))
    .filter((member) => !member.disabled && member.permissions.includes(permission))
    .map(({ id, email, name }) => ({ id, email, name }));
}
