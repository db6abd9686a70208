import "server-only";

import { createHmac, timingSafeEqual } from "node:crypto";

import { config } from "@/lib/config";
import type { AuditCheckpointRow } from "@/lib/audit-trail/server/schema";

/*
 * A retention checkpoint stands in for the events a prune removed: it holds the id and hash of the last
 * removed event, so the first event left still chains to something, and an HMAC signature made with the
 * audit key, so nobody without that key can forge one to cover a deletion of their own.
 */

export type CheckpointFields = Pick<
  AuditCheckpointRow,
  "createdAt" | "throughEventId" | "throughEventHash" | "throughEventAt" | "removedCount" | "cutoff" | "retentionDays"
>;

export function signCheckpoint(fields: CheckpointFields, secret = config().secrets.auditHash): string {
  const payload = JSON.stringify([
    fields.createdAt.toISOString(),
    fields.throughEventId,
    fields.throughEventHash,
    fields.throughEventAt.toISOString(),
    fields.removedCount,
    fields.cutoff.toISOString(),
    fields.retentionDays,
  ]);
  // A label of its own, so a checkpoint signature can never be mistaken for an event hash or a CPF hash.
  return createHmac("sha256", secret).update(`audit-checkpoint-v1\n${payload}`).digest("hex");
}

export function checkpointSignatureValid(row: CheckpointFields & { signature: string }, secret = config().secrets.auditHash): boolean {
  const expected = Buffer.from(signCheckpoint(row, secret), "hex");
  const actual = Buffer.from(/^[0-9a-f]{64}$/.test(row.signature) ? row.signature : "", "hex");
  return actual.length === expected.length && timingSafeEqual(actual, expected);
}
