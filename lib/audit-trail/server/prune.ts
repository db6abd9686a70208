import "server-only";

import { asc, count, desc, gte, lte, max, sql } from "drizzle-orm";

import { AUDIT_CHAIN_LOCK_KEY, recordEvent } from "@/lib/audit-trail/server/record";
import { auditCheckpoints, auditEvents } from "@/lib/audit-trail/server/tables";
import { config } from "@/lib/config";
import type { Database } from "@/lib/db/client";
import type { KeyRing } from "@/lib/keys/ring";

import { anchorAuditHead, signCheckpoint, type HeadCheckpoint } from "./checkpoint";
import { publishAuditHead } from "./head-file";
import { verifyAuditChain, type ChainBreak } from "./verify";

/*
 * Retention: removes the events older than the retention period: `npm run audit:prune` (pruneAuditTrail) and
 * the scheduled retention pruner (pruneAuditEvents, exported from lib/audit-trail/server).
 *
 * The database refuses every UPDATE and DELETE of an audit event or checkpoint (migration
 * 0011_audit_append_only); this is the one path through (migration 0015): inside its own transaction, it first
 * writes the retention checkpoint, signed with the audit key, covering the prefix it removes; the trigger lets
 * DELETEs through only up to a retention checkpoint written in the same transaction, never the newest event.
 * Anyone else with the database role can write a checkpoint too, but not sign it: the verifier checks every
 * retention checkpoint's signature, so such a DELETE is named, not hidden.
 *
 * The chain is cut only at a prefix (every event up to some id), never in the middle: the cut is just
 * before the oldest event that is still within the retention period, so an event written late with an
 * older timestamp (clock skew between instances) is kept until everything before it can go. The newest
 * event is always kept, so writers still find a previous hash to chain to.
 *
 * It refuses to run on a broken chain (unless told to), since removing old events could then erase the
 * evidence of tampering. Then, in one transaction, holding the writers' advisory lock: count, write a signed checkpoint
 * holding the hash of the last removed event (the verifier starts the chain from it), delete, record the
 * prune itself in the trail, and sign the new head (copied outside the database once committed).
 */

export interface PruneResult {
  removed: number;
  cutoff: Date;
  retentionDays: number;
  /** The last removed event, and the checkpoint written for it (null when nothing was old enough). */
  throughEventId: number | null;
  checkpointId: number | null;
}

/** The chain is broken: pruning now could remove the evidence, so nothing is removed. */
export class BrokenChainError extends Error {
  constructor(readonly broken: ChainBreak) {
    super(`the audit chain is broken, so nothing was pruned (that could remove the evidence): ${broken.message}`);
    this.name = "BrokenChainError";
  }
}

export interface PruneOptions {
  retentionDays?: number;
  /** Remove the events before this moment (instead of `retentionDays` before now). */
  before?: Date;
  now?: Date;
  dryRun?: boolean;
  /** The audit ring (the configured one by default): verified under every key, the checkpoint signed with its current. */
  ring?: KeyRing;
  allowBrokenChain?: boolean;
}

/**
 * For the retention pruner: removes the audit events written before `before` (a prefix of the chain, under
 * a signed checkpoint, the newest event always kept) and returns how many were removed. Throws
 * BrokenChainError, removing nothing, while the chain is broken.
 */
export async function pruneAuditEvents(db: Database, options: { before: Date; now?: Date; ring?: KeyRing }): Promise<number> {
  return (await pruneAuditTrail(db, options)).removed;
}

/** The prune with its whole result (`npm run audit:prune`). */
export async function pruneAuditTrail(db: Database, options: PruneOptions = {}): Promise<PruneResult> {
  const now = new Date(Math.floor((options.now ?? new Date()).getTime()));
  const cutoff = options.before
    ? new Date(Math.floor(options.before.getTime()))
    : new Date(now.getTime() - (options.retentionDays ?? config().auditRetentionDays) * 86_400_000);
  const retentionDays = options.before
    ? Math.max(0, Math.round((now.getTime() - cutoff.getTime()) / 86_400_000))
    : (options.retentionDays ?? config().auditRetentionDays);
  const none: PruneResult = { removed: 0, cutoff, retentionDays, throughEventId: null, checkpointId: null };

  // Checked first and outside the lock (a full walk would hold up every writer meanwhile). An altered
  // old event must be investigated, not quietly covered by a checkpoint.
  const ring = options.ring ?? config().secrets.auditHash;
  const verified = await verifyAuditChain(db, { ring });
  if (!verified.ok && !options.allowBrokenChain) throw new BrokenChainError(verified.broken!);

  const result: PruneResult & { head?: HeadCheckpoint | null } = await db.transaction(async (tx) => {
    await tx.execute(sql`select pg_advisory_xact_lock(${AUDIT_CHAIN_LOCK_KEY})`);
    const [newest] = await tx.select({ id: max(auditEvents.id) }).from(auditEvents);
    if (!newest?.id) return none;
    const [oldestKept] = await tx
      .select({ id: auditEvents.id })
      .from(auditEvents)
      .where(gte(auditEvents.at, cutoff))
      .orderBy(asc(auditEvents.id))
      .limit(1);
    const bound = Math.min((oldestKept?.id ?? Number(newest.id) + 1) - 1, Number(newest.id) - 1);
    const [through] = await tx
      .select({ id: auditEvents.id, hash: auditEvents.hash, at: auditEvents.at })
      .from(auditEvents)
      .where(lte(auditEvents.id, bound))
      .orderBy(desc(auditEvents.id))
      .limit(1);
    if (!through) return none;
    const [counted] = await tx.select({ n: count() }).from(auditEvents).where(lte(auditEvents.id, through.id));
    const removed = Number(counted?.n ?? 0);
    if (options.dryRun) return { ...none, removed, throughEventId: through.id };

    // The checkpoint first: the database lets a DELETE of events through only once this transaction has written a
    // retention checkpoint covering them (migration 0015); the verifier checks its signature.
    const fields = {
      kind: "prune" as const,
      createdAt: now,
      throughEventId: through.id,
      throughEventHash: through.hash,
      throughEventAt: through.at,
      removedCount: removed,
      cutoff,
      retentionDays,
    };
    const [checkpoint] = await tx
      .insert(auditCheckpoints)
      .values({ ...fields, signature: signCheckpoint(fields, ring.current.secret), keyId: ring.current.id })
      .returning({ id: auditCheckpoints.id });
    await tx.delete(auditEvents).where(lte(auditEvents.id, through.id));
    await recordEvent(
      {
        actor: null,
        action: "audit.prune",
        outcome: "success",
        details: {
          removed,
          through_event_id: through.id,
          retention_days: retentionDays,
          checkpoint_id: checkpoint?.id ?? null,
          // Pruned although the chain was broken (--allow-broken-chain): where it was broken.
          ...(verified.broken ? { chain_broken_at: verified.broken.eventId ?? -1 } : {}),
        },
        at: now,
      },
      tx,
    );
    // The prune's own record is the new head: anchored, so cutting it (and what follows) off shows.
    const head = await anchorAuditHead(tx, { now, key: ring.current });
    return { removed, cutoff, retentionDays, throughEventId: through.id, checkpointId: checkpoint?.id ?? null, head };
  });
  // Copied outside the database once committed (AUDIT_HEAD_FILE and the log): a rewound database shows against it.
  const { head, ...pruned } = result;
  if (head) await publishAuditHead(db, head);
  return pruned;
}
