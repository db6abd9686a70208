import "server-only";

import { asc, desc, eq, gt } from "drizzle-orm";

import { computeEventHash, GENESIS_HASH } from "@/lib/audit-trail/server/record";
import { auditChainHead, auditCheckpoints, auditEvents, type AuditEventRow } from "@/lib/audit-trail/server/tables";
import { config } from "@/lib/config";
import type { Database } from "@/lib/db/client";
import { keyById, type KeyRing } from "@/lib/keys/ring";

import { checkpointKey, checkpointSignatureValid } from "./checkpoint";

/*
 * Walks the audit chain in id order, checking each event with the audit key its `key_id` names (so events made
 * before and after a rotation all verify while the ring holds both keys), and reports the first event that breaks it:
 *
 * - `altered`: the row's hash is not the HMAC of its own fields and prev_hash, so a field (or the hash)
 *   was changed after it was written. Without the audit key the hash cannot be recomputed to match.
 * - `missing_before`: its prev_hash is not the hash of the event before it, so events in between were
 *   removed (or the one before it had its hash changed).
 * - `checkpoint_forged`: the latest retention checkpoint's signature does not verify.
 *
 * - `key_unknown`: events (or a checkpoint) were made under an audit key the ring no longer holds (AUDIT_HASH_SECRET
 *   lacks its id), so they cannot be checked. Not tampering, and not a pass either: the old key was dropped while
 *   events under it remain (docs/operations.md, "Rotating the audit key"). Reported after the whole walk, so a
 *   real break elsewhere still shows as such; the links of the unchecked events are still followed.
 *
 * - `head_missing`: the newest signed head checkpoint (or a head noted earlier, `expectHead`: audit:verify passes
 *   the copy kept outside the database, head-file.ts) names an event that is gone or has another hash: the newest
 *   events were cut off, or the tail was rewritten.
 * - `ids_missing`: ids are gapless (group-commit.ts takes them from the trail's count, audit_chain_head), so ids
 *   missing between two events, or before the first one, that no retention checkpoint covers were cut out; the
 *   chain may have been re-linked over them (new events appended after a cut chain to what was left).
 * - `tail_missing`: the count of events appended is above the newest event present: the newest events were cut.
 *
 * Every retention checkpoint's signature is checked, not only the latest's: the database lets a DELETE through
 * only after a retention checkpoint in the same transaction (migration 0015), which anyone with the database role
 * can write but only the audit key's holder can sign.
 *
 * A chain alone cannot show that its newest events were cut off; the count and the head checkpoints can (the
 * count unless a role that owns the tables lowered it with the triggers dropped; the copy of the head outside the
 * database even then). The result also carries the newest event's id and hash.
 *
 * The start of the chain is the genesis hash, or the latest valid checkpoint when a prune removed the
 * oldest events (lib/audit-trail/server/prune.ts). Reads in batches, so memory stays flat at any size.
 */

export type BreakReason =
  | "altered"
  | "missing_before"
  | "checkpoint_forged"
  | "before_checkpoint"
  | "head_missing"
  | "ids_missing"
  | "tail_missing"
  | "key_unknown";

export interface ChainBreak {
  reason: BreakReason;
  /** The first broken event (or, for a forged checkpoint, the checkpoint's own id). */
  eventId: number | null;
  checkpointId?: number;
  at?: string;
  action?: string;
  /** The event the broken one should chain to, when known. */
  previousEventId?: number | null;
  /** For `key_unknown`: the key id the ring lacks. */
  keyId?: string;
  /** The ids missing (first and last of the run), when ids are missing. */
  missingIds?: { from: number; to: number };
  message: string;
}

export interface VerifyResult {
  ok: boolean;
  checked: number;
  firstEventId: number | null;
  lastEventId: number | null;
  /** The newest event's hash: recorded elsewhere now and then, it also exposes a deleted tail later. */
  lastHash: string | null;
  /** The checkpoint the chain starts from, when events were pruned. */
  checkpoint: { id: number; throughEventId: number; removedCount: number; createdAt: string } | null;
  broken: ChainBreak | null;
  /** Events under a key id the ring lacks (not checked), per id: the first such event and how many. */
  unknownKeys: Array<{ keyId: string; firstEventId: number; events: number }>;
}

export interface VerifyOptions {
  batchSize?: number;
  /** The audit ring to check with (the configured one by default). */
  ring?: KeyRing;
  /** Progress callback (events checked so far), for the CLI on large tables. */
  onProgress?: (checked: number) => void;
  /**
   * A head noted earlier (one `audit:verify` printed): that event must still be there with that hash, or be pruned;
   * with `chainId`, it must be this trail's.
   */
  expectHead?: { id: number; hash: string; chainId?: string };
  /** The head copied outside the database (AUDIT_HEAD_FILE, head-file.ts), checked the same way. */
  externalHead?: { id: number; hash: string; chainId?: string };
}

function idRange({ from, to }: { from: number; to: number }): string {
  return from === to ? `#${from}` : `#${from} to #${to}`;
}

function noteUnknownKey(result: VerifyResult, eventId: number, keyId: string): void {
  const entry = result.unknownKeys.find((known) => known.keyId === keyId);
  if (entry) entry.events += 1;
  else result.unknownKeys.push({ keyId, firstEventId: eventId, events: 1 });
}

function describe(row: Pick<AuditEventRow, "id" | "at" | "action">): string {
  return `event #${row.id} (${row.at.toISOString()}, ${row.action})`;
}

/** Where a break is: the event, when and what it was, and the event before it (null at the start). */
function placeOf(row: Pick<AuditEventRow, "id" | "at" | "action">, previous: { id: number } | null | undefined) {
  return { eventId: row.id, at: row.at.toISOString(), action: row.action, previousEventId: previous?.id ?? null };
}

function headGone(anchor: { id: number; throughEventId: number }, rewritten: boolean): ChainBreak {
  return {
    reason: "head_missing",
    eventId: anchor.throughEventId,
    checkpointId: anchor.id,
    message: rewritten
      ? `event #${anchor.throughEventId}, signed as the head in checkpoint #${anchor.id}, now has a different hash: the chain was rewritten from there`
      : `event #${anchor.throughEventId}, signed as the head in checkpoint #${anchor.id}, is gone although no retention checkpoint covers it: the newest events were removed`,
  };
}

export async function verifyAuditChain(db: Database, options: VerifyOptions = {}): Promise<VerifyResult> {
  const batchSize = options.batchSize ?? 2000;
  const ring = options.ring ?? config().secrets.auditHash;

  const latest = (kind: "prune" | "head") =>
    db
      .select()
      .from(auditCheckpoints)
      .where(eq(auditCheckpoints.kind, kind))
      .orderBy(desc(auditCheckpoints.throughEventId), desc(auditCheckpoints.id))
      .limit(1);
  // The count first: every id up to it was committed before it was read, so the walk must find them.
  const [count] = await db.select().from(auditChainHead);
  const [[checkpoint], [anchor], prunes] = await Promise.all([
    latest("prune"),
    latest("head"),
    db.select().from(auditCheckpoints).where(eq(auditCheckpoints.kind, "prune")),
  ]);
  const result: VerifyResult = {
    ok: true,
    checked: 0,
    firstEventId: null,
    lastEventId: null,
    lastHash: null,
    checkpoint: checkpoint
      ? {
          id: checkpoint.id,
          throughEventId: checkpoint.throughEventId,
          removedCount: checkpoint.removedCount,
          createdAt: checkpoint.createdAt.toISOString(),
        }
      : null,
    broken: null,
    unknownKeys: [],
  };
  const fail = (broken: ChainBreak): VerifyResult => ({ ...result, ok: false, broken });

  for (const [row, kind] of [
    [checkpoint, "retention"],
    [anchor, "head"],
  ] as const) {
    if (row && !checkpointKey(row, ring)) {
      return fail({
        reason: "key_unknown",
        eventId: null,
        checkpointId: row.id,
        keyId: row.keyId,
        message: `${kind} checkpoint #${row.id} (event #${row.throughEventId}) was signed under audit key "${row.keyId}", which AUDIT_HASH_SECRET no longer holds: put that key back in the ring (after the newest key) to check it`,
      });
    }
  }

  if (checkpoint && !checkpointSignatureValid(checkpoint, ring)) {
    return fail({
      reason: "checkpoint_forged",
      eventId: null,
      checkpointId: checkpoint.id,
      message: `retention checkpoint #${checkpoint.id} (events up to #${checkpoint.throughEventId}) has an invalid signature: it was not written by audit:prune with this audit key`,
    });
  }

  // Earlier retention checkpoints too: each one let a DELETE through (migration 0015). One under a key the ring no
  // longer holds cannot be checked; it is no longer the chain's start, so it is passed over.
  const forgedPrune = prunes.find((row) => row.id !== checkpoint?.id && checkpointKey(row, ring) && !checkpointSignatureValid(row, ring));
  if (forgedPrune) {
    return fail({
      reason: "checkpoint_forged",
      eventId: null,
      checkpointId: forgedPrune.id,
      message: `retention checkpoint #${forgedPrune.id} (events up to #${forgedPrune.throughEventId}) has an invalid signature: it was not written by the pruner with this audit key, so the events it let the database delete were cut out`,
    });
  }

  if (anchor && !checkpointSignatureValid(anchor, ring)) {
    return fail({
      reason: "checkpoint_forged",
      eventId: null,
      checkpointId: anchor.id,
      message: `head checkpoint #${anchor.id} (event #${anchor.throughEventId}) has an invalid signature: it was not written with this audit key`,
    });
  }
  // The signed head must still be there with its hash, unless a prune has removed it since.
  const anchored = anchor && !(checkpoint && anchor.throughEventId <= checkpoint.throughEventId) ? anchor : null;
  let anchorSeen = false;

  let expectedPrev = checkpoint ? checkpoint.throughEventHash : GENESIS_HASH;
  let previous: Pick<AuditEventRow, "id" | "at" | "action"> | null = null;
  // Ids below `gapless_from` came from the column's sequence, where rolled-back transactions left holes.
  const gaplessFrom = count?.gaplessFrom ?? 1;
  const missing = (from: number, to: number) => (to >= from && to >= gaplessFrom ? { from: Math.max(from, gaplessFrom), to } : null);
  let idGap: ChainBreak | null = null;
  let afterId = 0;
  for (;;) {
    const rows = await db.select().from(auditEvents).where(gt(auditEvents.id, afterId)).orderBy(asc(auditEvents.id)).limit(batchSize);
    for (const row of rows) {
      if (result.firstEventId === null) result.firstEventId = row.id;
      if (checkpoint && row.id <= checkpoint.throughEventId) {
        return fail({
          reason: "before_checkpoint",
          eventId: row.id,
          checkpointId: checkpoint.id,
          at: row.at.toISOString(),
          action: row.action,
          message: `${describe(row)} is still present although checkpoint #${checkpoint.id} says every event up to #${checkpoint.throughEventId} was removed`,
        });
      }
      const gap = missing(previous ? previous.id + 1 : checkpoint ? checkpoint.throughEventId + 1 : 1, row.id - 1);
      if (row.prevHash !== expectedPrev) {
        const before = previous
          ? `the previous event, ${describe(previous)}`
          : checkpoint
            ? `retention checkpoint #${checkpoint.id} (last removed event #${checkpoint.throughEventId})`
            : "the start of the chain";
        return fail({
          reason: "missing_before",
          ...placeOf(row, previous),
          ...(gap ? { missingIds: gap } : {}),
          message: `${describe(row)} does not chain to ${before}: ${gap ? `events ${idRange(gap)} are missing` : "events between them were removed, or that event's hash was changed"}`,
        });
      }
      // Chained, yet ids are missing: events were cut out and the chain re-linked over them (noted; an alteration
      // or a missing signed head found later is reported first).
      if (gap && !idGap) {
        idGap = {
          reason: "ids_missing",
          ...placeOf(row, previous),
          missingIds: gap,
          message: `events ${idRange(gap)} are missing before ${describe(row)}, and no retention checkpoint covers them: they were cut out (ids are gapless), and the events after them chained on to what was left`,
        };
      }
      const key = keyById(ring, row.keyId);
      if (!key) noteUnknownKey(result, row.id, row.keyId);
      const computed = !key
        ? row.hash
        : computeEventHash(
            row.prevHash,
            {
              at: row.at,
              actorId: row.actorId,
              actorEmail: row.actorEmail,
              action: row.action,
              targetType: row.targetType,
              target: row.target,
              targetHash: row.targetHash,
              purpose: row.purpose,
              outcome: row.outcome,
              ip: row.ip,
              details: row.details ?? {},
              connectionId: row.connectionId,
            },
            key.secret,
          );
      if (computed !== row.hash) {
        return fail({
          reason: "altered",
          ...placeOf(row, previous),
          message: `${describe(row)} was altered after it was written: its hash does not match its contents`,
        });
      }
      if (anchored && row.id === anchored.throughEventId) {
        if (row.hash !== anchored.throughEventHash) return fail(headGone(anchored, true));
        anchorSeen = true;
      }
      expectedPrev = row.hash;
      previous = { id: row.id, at: row.at, action: row.action };
      result.checked += 1;
      result.lastEventId = row.id;
      result.lastHash = row.hash;
    }
    options.onProgress?.(result.checked);
    if (rows.length < batchSize) break;
    afterId = rows.at(-1)!.id;
  }
  if (anchored && !anchorSeen) return fail(headGone(anchored, false));
  if (idGap) return fail(idGap);
  const [unknown] = result.unknownKeys;
  if (unknown) {
    const others =
      result.unknownKeys.length > 1
        ? ` (and under ${result.unknownKeys
            .slice(1)
            .map((entry) => `"${entry.keyId}"`)
            .join(", ")})`
        : "";
    return fail({
      reason: "key_unknown",
      eventId: unknown.firstEventId,
      keyId: unknown.keyId,
      message: `${unknown.events.toLocaleString("en")} event(s) from #${unknown.firstEventId} on were hashed under audit key "${unknown.keyId}", which AUDIT_HASH_SECRET no longer holds${others}: they cannot be checked. Put the key back in the ring (after the newest key) until the pruner has removed every event under it`,
    });
  }
  for (const [noted, kept] of [
    [options.expectHead, "noted earlier as the head"],
    [options.externalHead, "the head kept outside the database"],
  ] as const) {
    if (!noted) continue;
    if (noted.chainId && noted.chainId !== count?.chainId) {
      return fail({
        reason: "head_missing",
        eventId: noted.id,
        message: `event #${noted.id}, ${kept}, belongs to trail ${noted.chainId}, and this database's trail is ${count?.chainId ?? "unnamed"}: the trail was replaced (a rewound or restored database), or the copy is another database's`,
      });
    }
    const status = await headStatus(db, noted);
    if (status !== "accounted") {
      return fail({
        reason: "head_missing",
        eventId: noted.id,
        message:
          status === "rewritten"
            ? `event #${noted.id}, ${kept}, now has a different hash: the chain was rewritten from there`
            : `event #${noted.id}, ${kept}, is gone although no retention checkpoint covers it: the newest events were removed`,
      });
    }
  }
  const newestPresent = result.lastEventId ?? checkpoint?.throughEventId ?? 0;
  const tail = count ? missing(newestPresent + 1, count.lastEventId) : null;
  if (tail) {
    return fail({
      reason: "tail_missing",
      eventId: tail.from,
      previousEventId: result.lastEventId,
      missingIds: tail,
      message: `events ${idRange(tail)} are missing at the end: ${count!.lastEventId.toLocaleString("en")} events were appended, the newest present is #${newestPresent}, and no retention checkpoint covers the rest: the newest events were removed`,
    });
  }
  return result;
}

/**
 * Where a head noted earlier stands: still in the chain with that hash, or covered by the latest retention checkpoint
 * (with that hash when it is the checkpoint's own last event): `accounted`; else `gone` (the newest events were cut)
 * or `rewritten` (that id now holds another event).
 */
export async function headStatus(db: Database, head: { id: number; hash: string }): Promise<"accounted" | "gone" | "rewritten"> {
  const [pruned] = await db
    .select({ throughEventId: auditCheckpoints.throughEventId, throughEventHash: auditCheckpoints.throughEventHash })
    .from(auditCheckpoints)
    .where(eq(auditCheckpoints.kind, "prune"))
    .orderBy(desc(auditCheckpoints.throughEventId), desc(auditCheckpoints.id))
    .limit(1);
  // Pruned since: only the checkpoint's own last event still has a hash to compare.
  const [row] =
    pruned && head.id < pruned.throughEventId
      ? [{ hash: head.hash }]
      : pruned && head.id === pruned.throughEventId
        ? [{ hash: pruned.throughEventHash }]
        : await db.select({ hash: auditEvents.hash }).from(auditEvents).where(eq(auditEvents.id, head.id));
  return !row ? "gone" : row.hash === head.hash ? "accounted" : "rewritten";
}
