import "server-only";

import { eq, sql } from "drizzle-orm";

import { recordEvent } from "@/lib/audit-trail/server";
import { config } from "@/lib/config";
import { getDb, queryRows, type Database } from "@/lib/db/client";
import { log, redactText } from "@/lib/log";
import { startJob } from "@/lib/runtime/scheduler";
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

async function claimOne(db: Database, now: Date): Promise<Claimed | undefined> {
  const at = now.toISOString();
  const [row] = await queryRows(
    db,
    sql`
    update notification_outbox set locked_until = ${new Date(now.getTime() + LOCK_MS).toISOString()}::timestamptz, attempts = attempts + 1
    where id = (
      select id from notification_outbox
      where sent_at is null and attempts < ${MAX_ATTEMPTS} and next_attempt_at <= ${at}::timestamptz
        and (locked_until is null or locked_until < ${at}::timestamptz)
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
  {
    transports = configuredTransports(),
    max = 50,
    keepGoing = () => true,
  }: {
    transports?: Transports;
    max?: number;
    /** Checked before each message: false stops the pass. */
    keepGoing?: () => boolean;
  } = {},
): Promise<OutboxSummary> {
  const summary: OutboxSummary = { sent: 0, failed: 0 };
  for (let index = 0; index < max && keepGoing(); index += 1) {
    // On the instances' clock, like the job leases': the retries are timed by it.
    const row = await claimOne(db, new Date());
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
        // 30, 60, 120 s… after this failure: the worker wakes at that time (startOutboxWorker).
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

/**
 * Milliseconds until the next message is due (its retry time, or a crashed sender's hold ending); undefined when
 * none waits.
 */
export async function outboxDueInMs(db: Database, now = new Date()): Promise<number | undefined> {
  const [row] = await queryRows(
    db,
    sql`
    select extract(epoch from min(greatest(next_attempt_at, coalesce(locked_until, next_attempt_at)))) * 1000 as due
    from notification_outbox where sent_at is null and attempts < ${MAX_ATTEMPTS}`,
  );
  return row?.due === null || row?.due === undefined ? undefined : Math.max(0, Number(row.due) - now.getTime());
}

/** What the outbox holds unsent (still to try), and how long the oldest has waited: for the metrics. */
export async function outboxBacklog(db: Database): Promise<{ depth: number; oldestAgeSeconds: number }> {
  const [row] = await queryRows(
    db,
    sql`
    select count(*)::int as depth, coalesce(extract(epoch from (now() - min(created_at))), 0) as age
    from notification_outbox where sent_at is null and attempts < ${MAX_ATTEMPTS}`,
  );
  return { depth: Number(row?.depth ?? 0), oldestAgeSeconds: Number(row?.age ?? 0) };
}

const state = globalThis as typeof globalThis & {
  __kycOutbox?: { running: Promise<void> | null; again: boolean; started: boolean; handled: number; transports?: Transports };
};
const worker = (state.__kycOutbox ??= { running: null, again: false, started: false, handled: 0 });

/**
 * Sends what is due now, without waiting (called right after enqueueing). Only once the worker was started
 * (instrumentation.ts): tests and scripts enqueue without sending. Kicks during a run coalesce into one more run.
 */
export function kickOutbox(): Promise<void> {
  if (!worker.started) return Promise.resolve();
  return kickCoalesced(
    worker,
    async () => {
      const summary = await processOutbox(await getDb(), { keepGoing: () => worker.started, transports: worker.transports });
      worker.handled += summary.sent + summary.failed;
    },
    (error) => log.error("notification_outbox_error", { error: error instanceof Error ? error.name : "Error" }),
  );
}

/**
 * Wakes when the next message is due (a retry's time: 30, 60, 120 s… after a failure, as docs/operations.md says),
 * and at least every 30 s for what another instance left (instrumentation.ts; lib/runtime/scheduler.ts).
 */
export function startOutboxWorker({ transports }: { transports?: Transports } = {}): void {
  if (worker.started) return;
  const { smtpUrl, chatWebhookUrl } = config().notifications;
  if (!smtpUrl && !chatWebhookUrl) return;
  worker.started = true;
  // The configured ones (each send reads the configuration), unless a test hands its own.
  worker.transports = transports;
  startJob({
    name: "notifications.outbox",
    maxSleepMs: 30_000,
    run: async () => {
      const before = worker.handled;
      await kickOutbox();
      return worker.handled > before ? "ran" : "idle";
    },
    nextDueInMs: async () => outboxDueInMs(await getDb()),
  });
}

/** Stops sending after the message in hand (a graceful shutdown): the run under way ends, no other starts. */
export async function stopOutbox(): Promise<void> {
  worker.started = false;
  await worker.running;
}
