import { z } from "zod";

import { AUDIT_OUTCOME_VALUES } from "./filters";

// Shared (no server imports): what GET /api/audit answers, parsed by the handler on the way out and
// typed for the page. Never the chain's hashes or a CPF hash: those are for the verifier and the export.

export const auditEventViewSchema = z
  .object({
    id: z.number().int().positive(),
    /** ISO 8601, UTC. */
    at: z.string(),
    actorId: z.string().nullable(),
    actorEmail: z.string().nullable(),
    action: z.string(),
    targetType: z.string().nullable(),
    /** As stored: masked when it is personal data. */
    target: z.string().nullable(),
    purpose: z.string().nullable(),
    outcome: z.enum(AUDIT_OUTCOME_VALUES),
    ip: z.string().nullable(),
    details: z.record(z.string(), z.unknown()),
    /** The connection it was recorded under (lib/connections), null when none. */
    connectionId: z.string().nullable(),
  })
  .strict();

/** A staff member an event names, as the staff table has them now. */
export const auditStaffSchema = z.object({ name: z.string().nullable(), email: z.string() }).strict();

export const auditPageSchema = z
  .object({
    events: z.array(auditEventViewSchema),
    /**
     * Every staff member the page's events name (actors, targets of type `staff`), by id: name and current
     * email. An id missing here (a deleted member) shows as the event's recorded email, or the id.
     */
    staff: z.record(z.string(), auditStaffSchema),
    /** Opaque; pass back as `cursor` for the next (older) page. Null on the last page. */
    nextCursor: z.string().nullable(),
  })
  .strict();

export type AuditEventView = z.infer<typeof auditEventViewSchema>;
export type AuditPage = z.infer<typeof auditPageSchema>;
export type AuditStaff = z.infer<typeof auditStaffSchema>;

/**
 * GET /api/audit/checkpoints: every signed checkpoint, oldest first, for an admin to keep outside the database.
 * `prune`: events up to `throughEventId` were removed by retention; `head`: the chain's newest event then. The
 * signature is HMAC-SHA256 under the audit key `keyId` names (AUDIT_HASH_SECRET's ring; lib/audit-trail/server/checkpoint.ts),
 * checked by audit:verify.
 */
export const auditCheckpointSchema = z
  .object({
    id: z.number().int().positive(),
    kind: z.enum(["prune", "head"]),
    /** ISO 8601, UTC. */
    createdAt: z.string(),
    throughEventId: z.number().int(),
    throughEventHash: z.string().regex(/^[0-9a-f]{64}$/),
    throughEventAt: z.string(),
    removedCount: z.number().int().nonnegative(),
    cutoff: z.string(),
    retentionDays: z.number().int().nonnegative(),
    signature: z.string(),
    /** The id of the audit key that signed it (a rotation adds keys; each checkpoint is checked with its own). */
    keyId: z.string(),
  })
  .strict();

export const auditCheckpointsSchema = z.object({ checkpoints: z.array(auditCheckpointSchema) }).strict();

export type AuditCheckpointsExport = z.infer<typeof auditCheckpointsSchema>;

/** A member with repeated CPF searches that found nothing in the recent window (the audit page's panel). */
export interface CpfSearchMisses {
  actorId: string | null;
  actorEmail: string | null;
  /** CPF searches that found nothing. */
  misses: number;
  /** CPF searches refused by the member's quota. */
  refused: number;
  /** ISO 8601, UTC: the newest CPF search in the window. */
  lastAt: string;
}
