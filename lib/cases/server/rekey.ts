import "server-only";

import { randomUUID } from "node:crypto";

import { and, asc, count, eq, gt, isNotNull, isNull, ne, or, sql } from "drizzle-orm";

import { cpfHash, recordEvent } from "@/lib/audit-trail/server";
import { erasedCpfs } from "@/lib/cases/server/search";
import { verificationIndex } from "@/lib/cases/server/tables";
import { config } from "@/lib/config";
import { getDb, type Database } from "@/lib/db/client";
import { acquireLease, releaseLease, renewLease } from "@/lib/db/lease";
import { startLeasedJob } from "@/lib/db/leased-job";
import { jobLeases } from "@/lib/db/tables";
import { log } from "@/lib/log";
import { isValidCpf } from "@/lib/shared/cpf";
import { coreClient } from "@/lib/upstream/core";
import { isUpstreamError } from "@/lib/upstream/errors";
import type { Verification } from "@/lib/upstream/model/verification";

/*
 * Re-keying the search index after an audit key rotation. Index entries keep the CPF only as its keyed hash, under
 * the key `cpf_key_id` names; a search matches the hash under every key of the ring (search.ts), so entries under
 * an older key are still found, but only while that key stays in AUDIT_HASH_SECRET. This job moves them to the
 * current key: the CPF cannot be read back from a hash, so each entry's verification is read again from the service
 * (the detail read, which brings the document unmasked when the service key holds that permission) and its hash
 * written under the current key, with the key's id.
 *
 * - At most `SEARCH_REKEY_BATCH` verifications are read per run, every `SEARCH_REKEY_INTERVAL_MINUTES`: each read is
 *   a call on the provider key's quota, and a rotation can leave the whole index to re-key.
 * - Every instance runs the timer; a lease in the database (lib/db/lease.ts, the interval as its minimum gap) makes
 *   one of them run. The lease row's state keeps where the pass stands (the last public id read), so entries the job
 *   cannot re-key (the service answers masked; a failure) wait for the next pass instead of being read every run,
 *   and a pass that reached the end rests a day before the next (a new rotation starts one at once).
 * - A verification the service no longer has (404) has nothing left to find: its entry is removed.
 * - A failure other than a 404 (the service unavailable, this server's address not allowed) ends the run: the next
 *   one starts from that entry.
 * - Each run that read something is one `search.rekey` event on the audit trail, with its counts and how many
 *   entries remain under older keys (when none remain, the old key can leave the ring as far as the index goes).
 *   A run with nothing to re-key reads nothing and records nothing.
 */

export const REKEY_LEASE = "search.rekey";
const LEASE_TTL_MS = 10 * 60_000;
/** After a whole pass, what it could not re-key (masked answers) is read again this much later at the soonest. */
const PASS_REST_MS = 24 * 3_600_000;
/** Renew the lease every this many reads (the detail read has its own deadline, well under the lease). */
const RENEW_EVERY = 20;

export interface RekeyClient {
  getVerification(publicId: string, signal?: AbortSignal): Promise<Verification>;
}

export interface RekeyOptions {
  client: RekeyClient;
  holder: string;
  /** Verifications read at most (the upstream calls this run may make). */
  batch: number;
  /** Refuse while the last run finished less than this ago (the schedule's interval); 0 on demand. */
  minGapMs?: number;
  now?: Date;
}

export interface RekeyCounts {
  /** Verifications read from the service. */
  read: number;
  /** Entries now under the current key. */
  rekeyed: number;
  /** Entries removed: their verification is gone at the service, or its person was erased. */
  dropped: number;
  /** Entries left as they were: the service answered with the document masked. */
  masked: number;
  /** Reads that failed (the run stopped at the first). */
  failed: number;
  /** Entries still under an older key after the run. */
  remaining: number;
}

/** Kept in the lease row between runs: the key the pass is for, where it stands, when the next pass may start. */
interface PassState {
  keyId?: string;
  after?: string;
  nextPassAt?: string;
}

export type RekeyReport = { ran: false } | ({ ran: true; keyId: string } & RekeyCounts);

/** Entries whose CPF hash is not under `keyId` (a hash without a key id predates key rings: key "1"). */
function staleUnder(keyId: string) {
  return and(isNotNull(verificationIndex.cpfHash), or(isNull(verificationIndex.cpfKeyId), ne(verificationIndex.cpfKeyId, keyId)));
}

/** How many index entries are still under an older audit key. */
export async function countStaleIndexEntries(db: Database, keyId = config().secrets.auditHash.current.id): Promise<number> {
  const [row] = await db.select({ n: count() }).from(verificationIndex).where(staleUnder(keyId));
  return Number(row?.n ?? 0);
}

export async function rekeySearchIndex(db: Database, options: RekeyOptions): Promise<RekeyReport> {
  const now = options.now ?? new Date();
  const taken = await acquireLease(db, {
    name: REKEY_LEASE,
    holder: options.holder,
    ttlMs: LEASE_TTL_MS,
    minGapMs: options.minGapMs ?? 0,
    now,
  });
  if (!taken) return { ran: false };
  const key = config().secrets.auditHash.current;
  const counts: RekeyCounts = { read: 0, rekeyed: 0, dropped: 0, masked: 0, failed: 0, remaining: 0 };
  let finished: Date | null = null;
  try {
    const [lease] = await db.select({ state: jobLeases.state }).from(jobLeases).where(eq(jobLeases.name, REKEY_LEASE));
    const state = (lease?.state ?? {}) as PassState;
    let after = state.after ?? "";
    // A pass under this key ended lately: what it left (masked answers) waits a while before it is read again.
    const resting = !after && state.keyId === key.id && state.nextPassAt !== undefined && Date.parse(state.nextPassAt) > now.getTime();
    let batch = resting ? [] : await staleAfter(db, key.id, after, options.batch);
    // The end of a pass: start the next one from the first entry.
    if (batch.length === 0 && after) {
      after = "";
      batch = await staleAfter(db, key.id, after, options.batch);
    }
    for (const { publicId } of batch) {
      if (counts.read > 0 && counts.read % RENEW_EVERY === 0) {
        // A lost lease means another instance took over after ours expired: stop rather than run twice.
        if (!(await renewLease(db, { name: REKEY_LEASE, holder: options.holder, ttlMs: LEASE_TTL_MS }))) break;
      }
      counts.read += 1;
      const outcome = await rekeyOne(db, options.client, publicId, key);
      if (outcome === "failed") {
        counts.failed += 1;
        break;
      }
      counts[outcome] += 1;
      after = publicId;
    }
    // Shorter than the batch: the pass reached the end; the next one starts from the first entry, a day later.
    const passDone = !resting && batch.length < options.batch && counts.failed === 0;
    const next: PassState = passDone
      ? { keyId: key.id, after: "", nextPassAt: new Date(now.getTime() + PASS_REST_MS).toISOString() }
      : resting
        ? state
        : { keyId: key.id, after };
    await db
      .update(jobLeases)
      .set({ state: { ...next } })
      .where(and(eq(jobLeases.name, REKEY_LEASE), eq(jobLeases.holder, options.holder)));
    counts.remaining = await countStaleIndexEntries(db, key.id);
    if (counts.read > 0) {
      await recordEvent(
        {
          actor: null,
          action: "search.rekey",
          outcome: counts.failed ? "failure" : "success",
          details: { key_id: key.id, ...counts, batch: options.batch },
        },
        db,
      );
    }
    finished = new Date();
    return { ran: true, keyId: key.id, ...counts };
  } finally {
    await releaseLease(db, REKEY_LEASE, options.holder, finished);
  }
}

async function staleAfter(db: Database, keyId: string, after: string, limit: number) {
  if (limit <= 0) return [];
  return db
    .select({ publicId: verificationIndex.publicId })
    .from(verificationIndex)
    .where(and(staleUnder(keyId), after ? gt(verificationIndex.publicId, after) : undefined))
    .orderBy(asc(verificationIndex.publicId))
    .limit(limit);
}

type Outcome = "rekeyed" | "dropped" | "masked" | "failed";

async function rekeyOne(db: Database, client: RekeyClient, publicId: string, key: { id: string; secret: string }): Promise<Outcome> {
  let verification: Verification;
  try {
    verification = await client.getVerification(publicId);
  } catch (error) {
    if (isUpstreamError(error) && error.kind === "not_found") {
      await db.delete(verificationIndex).where(eq(verificationIndex.publicId, publicId));
      return "dropped";
    }
    log.warn("search_rekey_read_failed", { error });
    return "failed";
  }
  if (verification.documentMasked || !isValidCpf(verification.document)) return "masked";
  // An erased person is not re-keyed but removed (the erasure holds under the new key: search.ts).
  if ((await erasedCpfs(db, [verification.document])).size > 0) {
    await db.delete(verificationIndex).where(eq(verificationIndex.publicId, publicId));
    return "dropped";
  }
  // The hash alone changes: `updated_at` (the index's retention clock) is not a sighting of the person.
  await db
    .update(verificationIndex)
    .set({ cpfHash: cpfHash(verification.document, key.secret), cpfKeyId: key.id })
    .where(and(eq(verificationIndex.publicId, publicId), sql`${verificationIndex.cpfKeyId} is distinct from ${key.id}`));
  return "rekeyed";
}

const INSTANCE = randomUUID();

export async function runScheduledRekey(minGapMs: number): Promise<RekeyReport> {
  return rekeySearchIndex(await getDb(), { client: coreClient(), holder: INSTANCE, batch: config().searchRekey.batch, minGapMs });
}

/**
 * Starts the schedule once per process (instrumentation.ts); SEARCH_REKEY_BATCH=0 turns it off. Each instance wakes
 * when the lease says a run is due (lib/db/leased-job.ts), at least every 5 minutes; the lease lets one run.
 */
export function startSearchRekeySchedule(): void {
  const { batch, intervalMinutes } = config().searchRekey;
  if (batch === 0) return;
  startLeasedJob({
    lease: REKEY_LEASE,
    gapMs: intervalMinutes * 60_000,
    maxSleepMs: 5 * 60_000,
    run: async ({ minGapMs }) => {
      const report = await runScheduledRekey(minGapMs);
      if (report.ran && report.read > 0) log.info("search_rekey", { ...report });
      return report.ran ? "ran" : "idle";
    },
  });
}
