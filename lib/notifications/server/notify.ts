import "server-only";

import { and, eq, inArray, sql } from "drizzle-orm";

import type { Permission } from "@/lib/auth/permissions";
import { staffAccess } from "@/lib/auth/server/staff-access";
import { staffUsers } from "@/lib/auth/server/tables";
import { config } from "@/lib/config";
import { membersUsing } from "@/lib/connections/server/access";
import { queryRows, type Database } from "@/lib/db/client";
import { publishLive } from "@/lib/db/live";
import { ACCOUNT_NOTIFICATION_KINDS, PRIVACY_NOTIFICATION_KINDS, type NotificationKind } from "@/lib/notifications/types";
import { PRIMARY_CONNECTION } from "@/lib/shared/connection-path";

import { messageFor, type MessageSubject } from "./messages";
import { notificationOutbox, notifications } from "./tables";

/*
 * Making notifications: one row per member, kind, case and dedupe key, inserted with ON CONFLICT DO NOTHING
 * on that unique key, so the same thing told twice (a retried job, two instances, the same note processed
 * again) is told once, naming the case by its ref_id when the caller knows it (`caseRef`). A case's notification
 * belongs to the case's connection (issue 33): told only to the members who may use it, its link under it. Each new row queues an
 * email to its member when SMTP_URL is set; one chat message
 * per call that made anything new when CHAT_WEBHOOK_URL is set (the channel is shared: three leads told of
 * one overdue case are one message there, not three). Run it inside the caller's transaction: the
 * notifications and their messages commit with what they tell of, or not at all; then `kickOutbox()`.
 */

export interface NotifyInput {
  userIds: readonly string[];
  kind: NotificationKind;
  /**
   * The case told of; "" for an account kind (ACCOUNT_NOTIFICATION_KINDS), a connection's (CONNECTION_NOTIFICATION_KINDS)
   * or a titular request's (PRIVACY_NOTIFICATION_KINDS).
   */
  casePublicId: string;
  /** A connection's kind: the connection it is about (else the case's connection is read). */
  connectionId?: string;
  /** A page of its own (the connections page); null: the case's page. */
  link?: string;
  /** The case's ref_id when the caller has it: the notification names the case by it (else looked up). */
  caseRef?: string | null;
  /** What makes two notifications of one kind and case different (a note's entry id for a mention). */
  dedupeKey?: string;
  actorId?: string | null;
  /** The request's origin, for the link when no public address (NEXTAUTH_URL) is configured. */
  origin?: string;
}

/**
 * The case's connection (its own, else its index entry's, else `primary`) and ref_id as the search index knows it
 * (null when it does not). Read by the tables' names: the case feature sits above this one (docs/architecture.md),
 * as the audit log reads the staff it names.
 */
async function caseFactsOf(db: Database, casePublicId: string): Promise<{ connectionId: string; caseRef: string | null }> {
  const [row] = await queryRows<{ connection_id: string | null; ref_id: string | null }>(
    db,
    sql`select coalesce(c.connection_id, i.connection_id) as connection_id, i.ref_id
        from (select ${casePublicId}::text as public_id) as k
        left join cases c on c.public_id = k.public_id
        left join verification_index i on i.public_id = k.public_id`,
  );
  return { connectionId: row?.connection_id ?? PRIMARY_CONNECTION, caseRef: row?.ref_id || null };
}

export async function notify(db: Database, input: NotifyInput): Promise<{ created: number }> {
  const account = ACCOUNT_NOTIFICATION_KINDS.has(input.kind);
  // A member's own account, or a titular's request: under no connection, told to whoever is named.
  const facts =
    account || PRIVACY_NOTIFICATION_KINDS.has(input.kind)
      ? { connectionId: null, caseRef: null }
      : input.connectionId
        ? { connectionId: input.connectionId, caseRef: null }
        : await caseFactsOf(db, input.casePublicId);
  const caseRef = input.caseRef === undefined ? facts.caseRef : input.caseRef;
  const { connectionId } = facts;
  const unique = [...new Set(input.userIds)];
  const userIds = connectionId === null ? unique : await membersUsing(db, unique, connectionId);
  if (userIds.length === 0) return { created: 0 };
  const rows = await db
    .insert(notifications)
    .values(
      userIds.map((userId) => ({
        userId,
        kind: input.kind,
        casePublicId: input.casePublicId,
        dedupeKey: input.dedupeKey ?? "",
        caseRef,
        connectionId,
        link: input.link ?? null,
        actorId: input.actorId ?? null,
      })),
    )
    .onConflictDoNothing({ target: [notifications.userId, notifications.kind, notifications.casePublicId, notifications.dedupeKey] })
    .returning({ id: notifications.id, userId: notifications.userId });
  if (rows.length === 0) return { created: 0 };
  // Each member's open tabs hear of it when this commits (lib/db/live.ts): the notification's id only.
  for (const row of rows) await publishLive(db, { topic: "notification", payload: { id: row.id }, userId: row.userId });

  await queueMessages(db, {
    kind: input.kind,
    userIds: rows.map((row) => row.userId),
    subject: { casePublicId: input.casePublicId, caseRef, connectionId, link: input.link ?? null },
    origin: input.origin,
    chat: !account,
  });
  return { created: rows.length };
}

/**
 * Queues what was just made for sending: an email to each member told (SMTP_URL), and one message to the shared
 * chat channel (CHAT_WEBHOOK_URL) when `chat` (never a member's own account event, nor a member's digest).
 */
export async function queueMessages(
  db: Database,
  input: { kind: NotificationKind; userIds: readonly string[]; subject: MessageSubject; origin?: string; chat: boolean },
): Promise<void> {
  const { notifications: channels, publicUrl } = config();
  const message = messageFor(input.kind, input.subject, publicUrl ?? input.origin);
  const outbox: (typeof notificationOutbox.$inferInsert)[] = [];
  if (channels.smtpUrl && input.userIds.length > 0) {
    const recipients = await db
      .select({ email: staffUsers.email })
      .from(staffUsers)
      .where(and(inArray(staffUsers.id, [...input.userIds]), eq(staffUsers.disabled, false)));
    for (const { email } of recipients) outbox.push({ channel: "email", recipient: email, ...message });
  }
  if (channels.chatWebhookUrl && input.chat) outbox.push({ channel: "chat", recipient: null, ...message });
  // Due now on the instances' clock, the one the sender claims and retries by (outbox.ts): the database's own now()
  // has microseconds, and a claim in the same millisecond as the insert found the message not yet due.
  const now = new Date();
  if (outbox.length) await db.insert(notificationOutbox).values(outbox.map((row) => ({ ...row, nextAttemptAt: now })));
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
