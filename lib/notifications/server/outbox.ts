import "server-only";

import { eq, sql } from "drizzle-orm";

import { recordEvent } from "@/lib/audit-trail/server";
import { config } from "@/lib/config";
import { getDb, queryRows, type Database } from "@/lib/db/client";
import { log, redactText } from "@/lib/log";
import { kickCoalesced } from "@/lib/shared/coalesced-run";

import { notificationOutbox } from "./tables";
import { configuredTransports, type Transports } from "./transports";

/*
 * Sends the outbox's messages. Any instance may run it at any time: a message is taken with one conditional
 * UPDATE (`locked_until` set on a row nobody holds, chosen with FOR UPDATE SKIP LOCKED), so two instances
 * never send the same message at once, and a crashed sender's hold expires. Sent: `sent_at`. Failed: a later
 * `next_attempt_at` (backing off) and `last_error` (redacted: never the SMTP password or the chat address);
 * after MAX_ATTEMPTS it stays unsent for an operator (docs/operations.md).
 *
 * Each attempt is on the audit trail like any other message leaving the dashboard: its intent before the
 * transport is called (so a crash mid-send still shows the attempt), then its outcome. The channel, the
 * message's id and the attempt only: never the recipient's address or the text.
 */

export const MAX_ATTEMPTS = 6;
const LOCK_MS = 60_000;
const BACKOFF_BASE_MS = 30_000;
const BACKOFF_MAX_MS = 3_600_000;

export interface OutboxSummary {
  sent: number;
  failed: number;
}

type Claimed = typeof notificationOutbox.$inferSelect;

async function claimOne(db: Database): Promise<Claimed | undefined> {
  const [row] = await queryRows(
    db,
    sql`
    update notification_outbox set locked_until = now() + ${`${LOCK_MS} milliseconds`}::interval, attempts = attempts + 1
    where id = (
      select id from notification_outbox
      where sent_at is null and attempts < ${MAX_ATTEMPTS} and next_attempt_at <= now()
        and (locked_until is null or locked_until < now())
      order by id limit 1
      for update skip locked
    )
    returning id, channel, recipient, subject, body, attempts`,
  );
  if (!row) return undefined;
  return {
    id: Number(row.id),
    channel: row.channel as Claimed["channel"],
    recipient: (row.recipient as string | null) ?? null,
    subject: String(row.subject),
    body: String(row.body),
    attempts: Number(row.attempts),
  } as Claimed;
}

/** The error as it may be stored: its name and message, the configured addresses and credentials removed. */
export function safeError(error: unknown): string {
  let text = error instanceof Error ? `${error.name}: ${error.message}` : "unknown error";
  const { smtpUrl, chatWebhookUrl } = config().notifications;
  const secrets: string[] = [];
  if (chatWebhookUrl) secrets.push(chatWebhookUrl, new URL(chatWebhookUrl).pathname);
  if (smtpUrl) {
    const url = new URL(smtpUrl);
    if (url.password) secrets.push(decodeURIComponent(url.password), url.password);
    secrets.push(smtpUrl);
  }
  for (const secret of secrets.filter((value) => value.length > 1)) text = text.split(secret).join("[redacted]");
  return redactText(text).slice(0, 300);
}

export async function processOutbox(
  db: Database,
  { transports = configuredTransports(), max = 50 }: { transports?: Transports; max?: number } = {},
): Promise<OutboxSummary> {
  const summary: OutboxSummary = { sent: 0, failed: 0 };
  for (let index = 0; index < max; index += 1) {
    const row = await claimOne(db);
    if (!row) break;
    const sendEvent = (outcome: "intent" | "success" | "failure", details: Record<string, string | number> = {}) =>
      recordEvent(
        {
          actor: null,
          action: "notification.send",
          outcome,
          target: { type: "notification", id: String(row.id) },
          details: { channel: row.channel, attempt: row.attempts, ...details },
        },
        db,
      );
    try {
      await sendEvent("intent");
      const message = { subject: row.subject, body: row.body };
      if (row.channel === "email") await transports.email(row.recipient ?? "", message);
      else await transports.chat(message);
      await sendEvent("success");
      await db
        .update(notificationOutbox)
        .set({ sentAt: new Date(), lockedUntil: null, lastError: null })
        .where(eq(notificationOutbox.id, row.id));
      summary.sent += 1;
    } catch (error) {
      const delay = Math.min(BACKOFF_BASE_MS * 2 ** (row.attempts - 1), BACKOFF_MAX_MS);
      await db
        .update(notificationOutbox)
        .set({ lockedUntil: null, nextAttemptAt: new Date(Date.now() + delay), lastError: safeError(error) })
        .where(eq(notificationOutbox.id, row.id));
      summary.failed += 1;
      await sendEvent("failure", { error: error instanceof Error ? error.name : "Error" }).catch(() => undefined);
      // Ids and counts only: the message's recipient stays out of the log.
      log.warn("notification_send_failed", {
        id: row.id,
        channel: row.channel,
        attempts: row.attempts,
        gaveUp: row.attempts >= MAX_ATTEMPTS,
      });
    }
  }
  return summary;
}

const state = globalThis as typeof globalThis & {
  __kycOutbox?: { running: Promise<void> | null; again: boolean; timer: NodeJS.Timeout | null };
};
const worker = (state.__kycOutbox ??= { running: null, again: false, timer: null });

/**
 * Sends what is due now, without waiting (called right after enqueueing). Only once the worker was started
 * (instrumentation.ts): tests and scripts enqueue without sending. Kicks during a run coalesce into one more run.
 */
export function kickOutbox(): Promise<void> {
  if (!worker.timer) return Promise.resolve();
  return kickCoalesced(
    worker,
    async () => processOutbox(await getDb()),
    (error) => log.error("notification_outbox_error", { error: error instanceof Error ? error.name : "Error" }),
  );
}

/** Sweeps every 30 s (instrumentation.ts): retries when due, and what another instance left. */
export function startOutboxWorker(): void {
  if (worker.timer) return;
  const { smtpUrl, chatWebhookUrl } = config().notifications;
  if (!smtpUrl && !chatWebhookUrl) return;
  worker.timer = setInterval(() => void kickOutbox(), 30_000);
  worker.timer.unref();
  void kickOutbox();
}
