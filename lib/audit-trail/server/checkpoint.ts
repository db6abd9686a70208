import "server-only";

import { createHmac, timingSafeEqual } from "node:crypto";

import { and, desc, eq, sql } from "drizzle-orm";

import { AUDIT_CHAIN_LOCK_KEY } from "@/lib/audit-trail/server/group-commit";
import { auditCheckpoints, auditEvents, type AuditCheckpointRow } from "@/lib/audit-trail/server/tables";
import { config } from "@/lib/config";
import type { Database } from "@/lib/db/client";
import { keyById, type Key, type KeyRing } from "@/lib/keys/ring";

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
 * Each is signed under the audit ring's current key, whose id it keeps (`key_id`), and verified under that key.
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

/**
 * Whether the checkpoint's signature is valid under the key its `keyId` names; false when the ring lacks that key
 * (the verifier tells that case apart: `checkpointKey`).
 */
export function checkpointSignatureValid(
  row: CheckpointFields & { signature: string; keyId: string },
  ring: KeyRing = config().secrets.auditHash,
): boolean {
  const key = checkpointKey(row, ring);
  if (!key) return false;
  const expected = Buffer.from(signCheckpoint(row, key.secret), "hex");
  const actual = Buffer.from(/^[0-9a-f]{64}$/.test(row.signature) ? row.signature : "", "hex");
  return actual.length === expected.length && timingSafeEqual(actual, expected);
}

/** The ring's key a checkpoint was signed under, or undefined when the ring no longer holds it. */
export function checkpointKey(row: { keyId: string }, ring: KeyRing = config().secrets.auditHash): Key | undefined {
  return keyById(ring, row.keyId);
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
  options: { now?: Date; key?: Key; verified?: { id: number; hash: string } } = {},
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
    const key = options.key ?? config().secrets.auditHash.current;
    const [row] = await tx
      .insert(auditCheckpoints)
      .values({ ...fields, signature: signCheckpoint(fields, key.secret), keyId: key.id })
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
