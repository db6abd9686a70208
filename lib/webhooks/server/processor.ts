import "server-only";

import { and, asc, eq, lte, sql } from "drizzle-orm";

import { recordEvent } from "@/lib/audit-trail/server";
import { config } from "@/lib/config";
import { withConnection } from "@/lib/connections/server/bind";
import { liveConnections } from "@/lib/connections/server/store";
import { getDb, queryRows, type Database } from "@/lib/db/client";
import { publishLive } from "@/lib/db/live";
import { log, redactText } from "@/lib/log";
import { startJob } from "@/lib/runtime/scheduler";
import { kickCoalesced } from "@/lib/shared/coalesced-run";
import { verificationEvents, webhookDeliveries } from "@/lib/webhooks/server/tables";

import { auditableDetail, webhookTarget } from "./audit";
import { verificationChangeListeners, type VerificationChange } from "./changes";
import { parseDelivery } from "./parse";
import { connectionOfEvent } from "./route-connection";

/*
 * Processes stored deliveries out of the request. Any instance may run it at any time: each delivery is
 * claimed with `SELECT … FOR UPDATE SKIP LOCKED` inside its own transaction, so two processors never
 * take the same row and neither waits for the other. Within that transaction the event is recorded
 * (one row per distinct event; a second delivery of it changes nothing), the listeners run, the outcome
 * goes on the audit trail and the delivery is marked processed: all of it commits, or none of it.
 *
 * A failure (a listener throws, the database drops) leaves the delivery pending with a later
 * `next_attempt_at`, backing off; after MAX_ATTEMPTS it is marked failed and stays for an operator.
 */

// Arbitrary constant, next to the migration (…001) and audit chain (…002) locks.
export const VERIFICATION_EVENTS_LOCK_KEY = 724_190_003;
export const MAX_ATTEMPTS = 10;
const BACKOFF_BASE_MS = 5_000;
const BACKOFF_MAX_MS = 3_600_000;

type Outcome = { kind: "none" } | { kind: "done"; deliveryId: string } | { kind: "failed"; deliveryId: string };

export interface ProcessSummary {
  processed: number;
  failed: number;
}

export async function processPendingDeliveries(db: Database, { max = 100 }: { max?: number } = {}): Promise<ProcessSummary> {
  const summary: ProcessSummary = { processed: 0, failed: 0 };
  for (let index = 0; index < max; index += 1) {
    const outcome = await processOne(db);
    if (outcome.kind === "none") break;
    if (outcome.kind === "done") summary.processed += 1;
    else {
      summary.failed += 1;
      // Leave the rest to the next look: a failing database should not be hammered in a loop.
      break;
    }
  }
  return summary;
}

async function processOne(db: Database): Promise<Outcome> {
  // Read before the delivery's transaction (a cached read outside it): on the embedded database's single connection,
  // a read beside an open transaction would wait for it.
  const live = await liveConnections(db);
  let claimed: { id: number; deliveryId: string; attempts: number } | undefined;
  try {
    return await db.transaction(async (tx) => {
      const [row] = await tx
        .select()
        .from(webhookDeliveries)
        .where(and(eq(webhookDeliveries.state, "pending"), lte(webhookDeliveries.nextAttemptAt, sql`now()`)))
        .orderBy(asc(webhookDeliveries.id))
        .limit(1)
        .for("update", { skipLocked: true });
      if (!row) return { kind: "none" } as const;
      claimed = { id: row.id, deliveryId: row.deliveryId, attempts: row.attempts };

      const read = parseDelivery(row.body);
      if (read.kind !== "verification") {
        // Stored bodies were read once already (an unreadable one is stored settled, never pending); this only
        // happens if the reading rules changed since.
        await tx
          .update(webhookDeliveries)
          .set({ state: "ignored", processedAt: new Date(), attempts: row.attempts + 1 })
          .where(eq(webhookDeliveries.id, row.id));
        return { kind: "done", deliveryId: row.deliveryId } as const;
      }
      const { parsed } = read;
      // Before the lock below: it may ask the service (./route-connection.ts), and the lock serialises every event.
      const { connection, verification } = await connectionOfEvent(tx as unknown as Database, live, parsed.publicId);
      // Held to commit: event ids become visible in increasing order (the change feed's cursor relies on it).
      await tx.execute(sql`select pg_advisory_xact_lock(${VERIFICATION_EVENTS_LOCK_KEY})`);
      // The change the listeners learn is the event row as recorded, less its deduplication key.
      const change: VerificationChange = {
        publicId: parsed.publicId,
        event: parsed.event,
        status: parsed.status,
        refId: parsed.refId,
        occurredAt: parsed.occurredAt,
        identityScore: parsed.identityScore,
        fraudScore: parsed.fraudScore,
        decidedAt: parsed.decidedAt,
        tenantPublicId: parsed.tenantPublicId,
        deliveryId: row.deliveryId,
      };
      const [inserted] = await tx
        .insert(verificationEvents)
        .values({ eventKey: parsed.eventKey, connectionId: connection.id, ...change })
        .onConflictDoNothing({ target: verificationEvents.eventKey })
        .returning({ id: verificationEvents.id });

      if (inserted) {
        // Speaking as the event's connection: what a listener reads and writes belongs to it.
        await withConnection(connection, async () => {
          // With the verification when the routing read it: a listener need not read it again.
          for (const listener of verificationChangeListeners()) await listener(tx, { ...change, verification });
        });
        // Open pages hear of it when this commits (lib/db/live.ts): the id and the status only.
        await publishLive(tx as unknown as Database, {
          topic: "verification.changed",
          payload: { publicId: parsed.publicId, status: parsed.status },
          connectionId: connection.id,
        });
      }
      await recordEvent(
        {
          actor: null,
          action: "webhook.process",
          target: webhookTarget("verification", parsed.publicId),
          outcome: "success",
          details: {
            event: parsed.event,
            status: parsed.status,
            delivery: auditableDetail(row.deliveryId),
            // A second delivery of an event already recorded: nothing changed.
            duplicate: !inserted,
          },
        },
        tx,
      );
      await tx
        .update(webhookDeliveries)
        .set({ state: "processed", processedAt: new Date(), attempts: row.attempts + 1, lastError: null })
        .where(eq(webhookDeliveries.id, row.id));
      log.info("webhook_processed", {
        deliveryId: row.deliveryId,
        // Not `event`: that key is the log line's own name.
        eventType: parsed.event,
        status: parsed.status,
        publicId: parsed.publicId,
        duplicate: !inserted,
      });
      return { kind: "done", deliveryId: row.deliveryId } as const;
    });
  } catch (error) {
    if (!claimed) throw error;
    await noteFailure(db, claimed, error).catch((noteError: unknown) =>
      log.error("webhook_failure_not_recorded", { deliveryId: claimed?.deliveryId, error: errorName(noteError) }),
    );
    return { kind: "failed", deliveryId: claimed.deliveryId };
  }
}

function errorName(error: unknown): string {
  return error instanceof Error ? error.name : "Error";
}

async function noteFailure(db: Database, claimed: { id: number; deliveryId: string; attempts: number }, error: unknown): Promise<void> {
  const attempts = claimed.attempts + 1;
  const delay = Math.min(BACKOFF_BASE_MS * 2 ** (attempts - 1), BACKOFF_MAX_MS);
  const reason = error instanceof Error ? `${error.name}: ${error.message}` : "unknown error";
  await db
    .update(webhookDeliveries)
    .set({
      attempts,
      state: attempts >= MAX_ATTEMPTS ? "failed" : "pending",
      nextAttemptAt: new Date(Date.now() + delay),
      lastError: redactText(reason).slice(0, 300),
    })
    .where(and(eq(webhookDeliveries.id, claimed.id), eq(webhookDeliveries.state, "pending")));
  // Ids and counts only: a listener's message may hold what the log must not.
  log.warn("webhook_processing_failed", { deliveryId: claimed.deliveryId, attempts, error: errorName(error) });
}

/**
 * Milliseconds until the next pending delivery is due (a failed one's retry: 5, 10, 20 s… after each failure), on
 * the database's clock, the one the claim compares with; undefined when none waits.
 */
export async function webhookDueInMs(db: Database): Promise<number | undefined> {
  const [row] = await queryRows<{ due: unknown }>(
    db,
    sql`select extract(epoch from (min(${webhookDeliveries.nextAttemptAt}) - now())) * 1000 as due
    from ${webhookDeliveries} where ${webhookDeliveries.state} = 'pending'`,
  );
  return row?.due === null || row?.due === undefined ? undefined : Math.max(0, Number(row.due));
}

const state = globalThis as typeof globalThis & {
  __kycWebhookProcessor?: { running: Promise<void> | null; again: boolean; handled: number; errors: number };
};
// `handled` and `errors` count deliveries handled and passes that threw, so the sweep can tell its look's outcome.
const processor = (state.__kycWebhookProcessor ??= { running: null, again: false, handled: 0, errors: 0 });

/**
 * Starts processing in this process without waiting for it (the receiver calls it right after storing).
 * Kicks while a run is under way coalesce into one more run, so a burst of deliveries costs few passes.
 */
export function kickWebhookProcessor(): Promise<void> {
  return kickCoalesced(
    processor,
    async () => {
      const summary = await processPendingDeliveries(await getDb());
      processor.handled += summary.processed + summary.failed;
    },
    (error) => {
      processor.errors += 1;
      log.error("webhook_processor_error", { error: errorName(error) });
    },
  );
}

/**
 * The sweep (instrumentation.ts; a job of lib/runtime/scheduler.ts): at start-up, when the next pending delivery is
 * due (a failed one's retry), and at least every WEBHOOK_SWEEP_SECONDS, for what a crash, a restart or another
 * instance left. Once per process; stopping the jobs stops it (a graceful shutdown).
 */
export function startWebhookSweeper(): void {
  startJob({
    name: "webhooks.sweep",
    maxSleepMs: config().webhooks.sweepSeconds * 1000,
    run: async () => {
      const before = { ...processor };
      await kickWebhookProcessor();
      // A pass that threw (the database, most likely): the next look waits the whole sweep interval.
      if (processor.errors > before.errors) throw new Error("webhook processing failed");
      return processor.handled > before.handled ? "ran" : "idle";
    },
    nextDueInMs: async () => webhookDueInMs(await getDb()),
  });
}
