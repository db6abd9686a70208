import "server-only";

import { createHmac, timingSafeEqual } from "node:crypto";

import { and, desc, eq, sql } from "drizzle-orm";

import { AUDIT_CHAIN_LOCK_KEY } from "@/lib/audit-trail/server/group-commit";
import { auditCheckpoints, auditEvents, type AuditCheckpointRow } from "@/lib/audit-trail/server/schema";
import { config } from "@/lib/config";
import type { Database } from "@/lib/db/client";

/*
 * Checkpoints are signed with an HMAC under the audit key, so nobody without that key can forge one:
 *
 * - a retention checkpoint (`prune`) stands in for the events a prune removed: it holds the id and hash of the
 *   last removed event, so the first event left still chains to something;
 * - a head checkpoint (`head`) anchors the chain's newest event at a moment: events cut off the end since, or a
 *   tail rewritten, show against it (lib/audit-trail/server/verify.ts). Admins export them all
 *   (GET /api/audit/checkpoints) to keep a copy outside the database.
 *
 * The kind is bound by the signature's label, so a prune checkpoint cannot pass as a head one or the reverse.
 */

export type CheckpointKind = AuditCheckpointRow["kind"];

export type CheckpointFields = Pick<
  AuditCheckpointRow,
  "createdAt" | "throughEventId" | "throughEventHash" | "throughEventAt" | "removedCount" | "cutoff" | "retentionDays"
> & { kind?: CheckpointKind };

export function signCheckpoint(fields: CheckpointFields, secret = config().secrets.auditHash.current.secret): string {
  const payload = JSON.stringify([
    fields.createdAt.toISOString(),
    fields.throughEventId,
    fields.throughEventHash,
    fields.throughEventAt.toISOString(),
    fields.removedCount,
    fields.cutoff.toISOString(),
    fields.retentionDays,
  ]);
  // A label of its own, so a checkpoint signature can never be mistaken for an event hash or a CPF hash
  // (`audit-checkpoint-v1` is the retention checkpoints' label since the first prune: kept as it was).
  const label = (fields.kind ?? "prune") === "head" ? "audit-head-v1" : "audit-checkpoint-v1";
  return createHmac("sha256", secret).update(`${label}\n${payload}`).digest("hex");
}

export function checkpointSignatureValid(row: CheckpointFields & { signature: string }, secret = config().secrets.auditHash.current.secret): boolean {
  const expected = Buffer.from(signCheckpoint(row, secret), "hex");
  const actual = Buffer.from(/^[0-9a-f]{64}$/.test(row.signature) ? row.signature : "", "hex");
  return actual.length === expected.length && timingSafeEqual(actual, expected);
}

export interface HeadCheckpoint {
  id: number;
  throughEventId: number;
  throughEventHash: string;
}

/**
 * Signs the chain's newest event (or the `verified` one) as a head checkpoint (none when the trail is empty, the existing one when the
 * head has not moved since). Pass a transaction that already holds the writers' lock, or the database.
 */
export async function anchorAuditHead(
  db: Database,
  options: { now?: Date; secret?: string; verified?: { id: number; hash: string } } = {},
): Promise<HeadCheckpoint | null> {
  return db.transaction(async (tx) => {
    await tx.execute(sql`select pg_advisory_xact_lock(${AUDIT_CHAIN_LOCK_KEY})`);
    // A head just verified (audit:verify) is signed as it was verified, not whatever came after it.
    const [head] = await tx
      .select({ id: auditEvents.id, hash: auditEvents.hash, at: auditEvents.at })
      .from(auditEvents)
      .where(options.verified ? eq(auditEvents.id, options.verified.id) : undefined)
      .orderBy(desc(auditEvents.id))
      .limit(1);
    if (!head || (options.verified && head.hash !== options.verified.hash)) return null;
    const [existing] = await tx
      .select({
        id: auditCheckpoints.id,
        throughEventId: auditCheckpoints.throughEventId,
        throughEventHash: auditCheckpoints.throughEventHash,
      })
      .from(auditCheckpoints)
      .where(and(eq(auditCheckpoints.kind, "head"), eq(auditCheckpoints.throughEventId, head.id)))
      .limit(1);
    if (existing) return existing;
    const now = new Date(Math.floor((options.now ?? new Date()).getTime()));
    const fields = {
      kind: "head" as const,
      createdAt: now,
      throughEventId: head.id,
      throughEventHash: head.hash,
      throughEventAt: head.at,
      removedCount: 0,
      cutoff: now,
      retentionDays: 0,
    };
    const [row] = await tx
      .insert(auditCheckpoints)
      .values({ ...fields, signature: signCheckpoint(fields, options.secret) })
      .returning({
        id: auditCheckpoints.id,
        throughEventId: auditCheckpoints.throughEventId,
        throughEventHash: auditCheckpoints.throughEventHash,
      });
    return row!;
  });
}

/** Every checkpoint, oldest first, as an admin exports them (each with its signature, to check with the key). */
export async function listAuditCheckpoints(db: Database): Promise<AuditCheckpointRow[]> {
  return db.select().from(auditCheckpoints).orderBy(auditCheckpoints.id);
}
