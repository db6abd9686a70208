import "server-only";

import { desc, sql } from "drizzle-orm";

import { auditChainHead, auditEvents } from "@/lib/audit-trail/server/tables";
import type { Database } from "@/lib/db/client";
import { metrics, secondsSince } from "@/lib/metrics/registry";

/*
 * Group commit for the audit trail. Every request that reads personal data writes an event before it
 * answers, so under load the trail is the hot path: one transaction, one chain lock and one commit per
 * event made every list view queue behind every other. Here, events that arrive while a batch is being
 * committed wait for the next batch, and a batch is one transaction: take the chain lock, read the last
 * hash, chain the events in arrival order, insert them in one statement, commit. Each caller is answered
 * only when the commit that holds its own event has returned, so "no answer without its event on the
 * trail" is unchanged; the chain is the same chain (id order = hash order) and `audit:verify` reads it as
 * before. With one request at a time a batch is that one event, so nothing waits for company.
 *
 * A batch starts one event-loop turn after its first event (setImmediate), never at once: PGlite runs each
 * statement synchronously, so a request's queries and its event's commit would otherwise all complete in
 * one run of promise callbacks, before any other request's I/O is even looked at, and every batch would
 * hold one event. The turn lets requests whose answers have arrived reach their own events first; it
 * costs microseconds, not a timer's delay.
 *
 * Several instances on one PostgreSQL each run their own committer; the transaction-scoped advisory lock
 * serialises their batches, exactly as it serialised single events.
 */

export const GENESIS_HASH = "0".repeat(64);
// Arbitrary constant shared by every writer (and the pruner) of the chain.
export const AUDIT_CHAIN_LOCK_KEY = 724_190_002;
/** Events per transaction at most: bounds the statement size and a batch's failure radius. */
export const MAX_BATCH = 256;

/** The stored fields of an event, in the order the chain hash covers them. */
export interface ChainedFields {
  at: Date;
  actorId: string | null;
  actorEmail: string | null;
  action: string;
  targetType: string | null;
  target: string | null;
  targetHash: string | null;
  purpose: string | null;
  outcome: (typeof auditEvents.$inferInsert)["outcome"];
  ip: string | null;
  details: Record<string, unknown>;
  /** The connection the event was recorded under; absent or null: none (every event before connections). */
  connectionId?: string | null;
}

export interface AppendedEvent {
  id: number;
  hash: string;
}

export type HashFn = (prevHash: string, fields: ChainedFields) => string;

/**
 * What chains new events: the audit key's id (stored as each row's `key_id`, so a verifier picks the key that
 * made its hash) and the hash under that key (record.ts `chainSigner`).
 */
export interface ChainSigner {
  keyId: string;
  hashOf: HashFn;
}

/**
 * Appends events to the chain in one transaction (a savepoint when `executor` is already a transaction,
 * whose lock then lasts until the caller commits). Results are in the order of `events`.
 */
export async function appendChained(executor: Database, events: ChainedFields[], signer: ChainSigner): Promise<AppendedEvent[]> {
  if (events.length === 0) return [];
  return executor.transaction(async (tx) => {
    await tx.execute(sql`select pg_advisory_xact_lock(${AUDIT_CHAIN_LOCK_KEY})`);
    const [last] = await tx.select({ id: auditEvents.id, hash: auditEvents.hash }).from(auditEvents).orderBy(desc(auditEvents.id)).limit(1);
    const firstId = await allocateIds(tx, events.length, last?.id ?? 0);
    let prevHash = last?.hash ?? GENESIS_HASH;
    const rows = events.map((fields, index) => {
      const hash = signer.hashOf(prevHash, fields);
      const row = { ...fields, id: firstId + index, prevHash, hash, keyId: signer.keyId };
      prevHash = hash;
      return row;
    });
    // One multi-row INSERT, under the lock, so id order is chain order.
    await tx.insert(auditEvents).values(rows);
    return rows.map((row) => ({ id: row.id, hash: row.hash }));
  });
}

/*
 * Ids come from the trail's count (audit_chain_head), not from the column's sequence: a sequence hands out numbers
 * a rolled-back transaction never uses (an action that fails after recording in its own transaction), so its holes
 * would look exactly like events cut out. The count is moved in the appending transaction, under the chain's lock,
 * and rolls back with it: ids are gapless, and any missing id, or a newest event below the count, is a cut
 * (lib/audit-trail/server/verify.ts). The database refuses lowering the count (migration 0015). `greatest` with
 * the newest id present covers a row written without the count (a restored backup, a test's direct insert).
 */
async function allocateIds(tx: Database, count: number, newestId: number): Promise<number> {
  const [head] = await tx
    .insert(auditChainHead)
    .values({ id: true, lastEventId: newestId + count, gaplessFrom: newestId + 1 })
    .onConflictDoUpdate({
      target: auditChainHead.id,
      set: { lastEventId: sql`greatest(${auditChainHead.lastEventId}, ${newestId}) + ${count}` },
    })
    .returning({ lastEventId: auditChainHead.lastEventId });
  return head!.lastEventId - count + 1;
}

interface Pending {
  fields: ChainedFields;
  resolve: (event: AppendedEvent) => void;
  reject: (error: unknown) => void;
}

/** One per database handle: queues events and commits them in batches, one batch at a time. */
export class GroupCommitter {
  private queue: Pending[] = [];
  private flushing = false;

  constructor(
    private readonly db: Database,
    /** Read per batch: the key in force when the batch is chained. */
    private readonly signerOf: () => ChainSigner,
    private readonly maxBatch = MAX_BATCH,
  ) {}

  /** Resolves once the event is committed; rejects (and nothing of its batch is written) otherwise. */
  append(fields: ChainedFields): Promise<AppendedEvent> {
    return new Promise((resolve, reject) => {
      this.queue.push({ fields, resolve, reject });
      if (!this.flushing) {
        this.flushing = true;
        setImmediate(() => void this.flush());
      }
    });
  }

  private async appendAlone(pending: Pending): Promise<void> {
    try {
      const [written] = await appendChained(this.db, [pending.fields], this.signerOf());
      pending.resolve(written!);
    } catch (error) {
      pending.reject(error);
    }
  }

  private async flush(): Promise<void> {
    try {
      while (this.queue.length > 0) {
        const batch = this.queue.splice(0, this.maxBatch);
        const started = performance.now();
        try {
          const written = await appendChained(
            this.db,
            batch.map((pending) => pending.fields),
            this.signerOf(),
          );
          metrics().auditCommits.observe({ outcome: "committed" }, secondsSince(started));
          metrics().auditBatchEvents.inc(batch.length);
          batch.forEach((pending, index) => pending.resolve(written[index]!));
        } catch (error) {
          metrics().auditCommits.observe({ outcome: "rolled_back" }, secondsSince(started));
          // The transaction rolled back: none of these events is on the trail. One event's failure
          // must not refuse its neighbours' requests, so a failed batch is retried one event at a time,
          // and each caller gets its own event's fate.
          if (batch.length === 1) batch[0]!.reject(error);
          else for (const pending of batch) await this.appendAlone(pending);
        }
        // One turn before the next batch too, for the same reason as before the first.
        await new Promise((resolve) => setImmediate(resolve));
      }
    } finally {
      this.flushing = false;
    }
  }
}

const committers = new WeakMap<Database, GroupCommitter>();

/** The committer of this database handle (created on first use). */
export function groupCommitterFor(db: Database, signerOf: () => ChainSigner): GroupCommitter {
  let committer = committers.get(db);
  if (!committer) {
    committer = new GroupCommitter(db, signerOf);
    committers.set(db, committer);
  }
  return committer;
}
