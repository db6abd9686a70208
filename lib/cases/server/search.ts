import "server-only";

import { and, desc, eq, inArray, sql } from "drizzle-orm";
import { LRUCache } from "lru-cache";

import { cpfHash, cpfHashes } from "@/lib/audit-trail/server";
import { cases, searchIndexErased, verificationIndex } from "@/lib/cases/server/tables";
import type { SearchHit, SearchResponse, SearchSource } from "@/lib/cases/types";
import type { SearchInput } from "@/lib/cases/validation";
import { config } from "@/lib/config";
import { getDb, type Database } from "@/lib/db/client";
import { log } from "@/lib/log";
import { isValidCpf, maskCpf } from "@/lib/shared/cpf";
import { currentConnectionId } from "@/lib/upstream/account";

/*
 * The search index: verifications by the caller's `ref_id` and by CPF, the CPF kept only as the audit
 * trail's keyed hash (same key, so one typed CPF finds both its events and its verifications) plus its
 * masked form. Fed by creation here (ref_id and the typed CPF), by events (ref_id), and by every read that
 * brings a whole verification: the sync and ingestion, a verification's page, every list page the dashboard
 * reads and the export (the document, hashed only when the service sends it unmasked; a masked CPF cannot be
 * hashed, so where the service key lacks the unmasked permission only CPFs typed here are found).
 *
 * Each hash is made under the audit ring's current key, whose id the row keeps (`cpf_key_id`); a search matches the
 * hash under every key of the ring, and after a rotation the re-keying job (rekey.ts) moves older rows to the new
 * key by reading their verification again.
 *
 * A person erased on request (lib/privacy/server/erasure.ts) stays out: every write here, and the re-keying, first
 * drops the CPFs `erasedCpfs` names, so no later read indexes them again.
 */

export interface IndexEntry {
  publicId: string;
  refId?: string | null;
  /** Raw CPF; only its keyed hash and masked form are stored. */
  cpf?: string | null;
  documentMasked?: string | null;
  createdHere?: boolean;
}

/**
 * Remembers the people an erasure removed from the index, by the keyed hashes of their CPF only (the erasure's,
 * one per key of the audit ring when it was asked). Inside the erasure's transaction.
 */
export async function forgetInSearchIndex(tx: Database, hashes: string[], erasureId: string, now: Date): Promise<void> {
  if (hashes.length === 0) return;
  await tx
    .insert(searchIndexErased)
    .values(hashes.map((cpfHash) => ({ cpfHash, erasureId, erasedAt: now })))
    .onConflictDoNothing();
}

/**
 * The CPFs among `cpfs` whose person was erased (their hash under any key of the audit ring is remembered): the one
 * check every write to the index makes. For each one found, the hash under the current key is remembered too, so the
 * erasure still holds once the key it was asked under has left the ring (after a rotation).
 */
export async function erasedCpfs(db: Database, cpfs: Array<string | null | undefined>): Promise<Set<string>> {
  const ring = config().secrets.auditHash;
  const hashesOf = new Map(
    [...new Set(cpfs.filter((cpf): cpf is string => !!cpf && isValidCpf(cpf)))].map((cpf) => [cpf, cpfHashes(cpf, ring)]),
  );
  if (hashesOf.size === 0) return new Set();
  const found = await db
    .select({ cpfHash: searchIndexErased.cpfHash, erasureId: searchIndexErased.erasureId, erasedAt: searchIndexErased.erasedAt })
    .from(searchIndexErased)
    .where(inArray(searchIndexErased.cpfHash, [...hashesOf.values()].flat()));
  if (found.length === 0) return new Set();
  const byHash = new Map(found.map((row) => [row.cpfHash, row]));
  const erased = new Set<string>();
  const current: Array<typeof searchIndexErased.$inferInsert> = [];
  for (const [cpf, hashes] of hashesOf) {
    const known = hashes.map((hash) => byHash.get(hash)).find((row) => row !== undefined);
    if (!known) continue;
    erased.add(cpf);
    // Hashes are listed newest key first: the current key's.
    if (!byHash.has(hashes[0]!)) current.push({ cpfHash: hashes[0]!, erasureId: known.erasureId, erasedAt: known.erasedAt });
  }
  if (current.length > 0) await db.insert(searchIndexErased).values(current).onConflictDoNothing();
  return erased;
}

/** Upserts index entries; a field already known is kept when the new observation lacks it. Erased people are left out. */
export async function indexVerifications(db: Database, given: IndexEntry[], now = new Date()): Promise<void> {
  const erased = await erasedCpfs(
    db,
    given.map((entry) => entry.cpf),
  );
  const entries = given.filter((entry) => !entry.cpf || !erased.has(entry.cpf));
  if (entries.length === 0) return;
  const key = config().secrets.auditHash.current;
  const connectionId = currentConnectionId();
  const rows = entries.map((entry) => {
    const cpf = entry.cpf && isValidCpf(entry.cpf) ? entry.cpf : null;
    return {
      publicId: entry.publicId,
      refId: entry.refId || null,
      cpfHash: cpf ? cpfHash(cpf, key.secret) : null,
      cpfKeyId: cpf ? key.id : null,
      documentMasked: cpf ? maskCpf(cpf) : (entry.documentMasked ?? null),
      createdHere: entry.createdHere ?? false,
      // The connection whose key read (or created) it; an entry keeps the connection it was first written under.
      connectionId,
      updatedAt: now,
    };
  });
  await db
    .insert(verificationIndex)
    .values(rows)
    .onConflictDoUpdate({
      target: verificationIndex.publicId,
      set: {
        refId: sql`coalesce(excluded.ref_id, ${verificationIndex.refId})`,
        cpfHash: sql`coalesce(excluded.cpf_hash, ${verificationIndex.cpfHash})`,
        // Null exactly when the hash is: the hash and its key id are kept, or replaced, together.
        cpfKeyId: sql`coalesce(excluded.cpf_key_id, ${verificationIndex.cpfKeyId})`,
        documentMasked: sql`coalesce(excluded.document_masked, ${verificationIndex.documentMasked})`,
        createdHere: sql`${verificationIndex.createdHere} or excluded.created_here`,
        updatedAt: sql`excluded.updated_at`,
      },
    });
}

/*
 * What this instance wrote (or found already written) lately, per database handle: public id → the hash under its
 * key id. Every list view runs `learnUnmaskedCpfs`, and most pages are read again (paging back, the list's own
 * refresh): a page whose every row this instance knows skips the statement altogether (a PGlite statement is a few
 * milliseconds of this process's CPU). Only a memory: a row another instance, an erasure or the pruner changed is
 * learned again once its entry leaves (LEARNED_TTL_MS), as it would have been without it.
 */
const LEARNED_TTL_MS = 10 * 60_000;
const LEARNED_MAX = 50_000;
const learnedByDatabase = new WeakMap<Database, LRUCache<string, string>>();

function learnedOf(db: Database): LRUCache<string, string> {
  let learned = learnedByDatabase.get(db);
  if (!learned) learnedByDatabase.set(db, (learned = new LRUCache({ max: LEARNED_MAX, ttl: LEARNED_TTL_MS })));
  return learned;
}

/**
 * Learns the CPFs of a page of verifications read unmasked (a list page, an export page): one statement for the
 * page, writing only rows whose CPF was not known yet, so reading the same page again writes nothing (and, on
 * this instance, sends nothing). Masked documents teach nothing and are skipped: the index never holds a masked
 * guess. A row hashed under an older audit key is re-keyed by the same write (its hash differs under the current key).
 */
export async function learnUnmaskedCpfs(
  db: Database,
  items: Array<{ publicId: string; document: string; documentMasked: boolean }>,
  now = new Date(),
): Promise<number> {
  const key = config().secrets.auditHash.current;
  const learned = learnedOf(db);
  const fresh = items
    .filter((item) => !item.documentMasked && isValidCpf(item.document))
    .map((item) => ({
      cpf: item.document,
      row: {
        publicId: item.publicId,
        connectionId: currentConnectionId(),
        cpfHash: cpfHash(item.document, key.secret),
        cpfKeyId: key.id,
        documentMasked: maskCpf(item.document),
        updatedAt: now,
      },
    }))
    .filter(({ row }) => learned.get(row.publicId) !== `${row.cpfKeyId}:${row.cpfHash}`);
  // Only rows not known yet ask whether their person was erased: a page known whole asks nothing.
  const erased = await erasedCpfs(
    db,
    fresh.map(({ cpf }) => cpf),
  );
  const rows = fresh.filter(({ cpf }) => !erased.has(cpf)).map(({ row }) => row);
  if (rows.length === 0) return 0;
  const written = await db
    .insert(verificationIndex)
    .values(rows)
    .onConflictDoUpdate({
      target: verificationIndex.publicId,
      set: {
        cpfHash: sql`excluded.cpf_hash`,
        cpfKeyId: sql`excluded.cpf_key_id`,
        documentMasked: sql`excluded.document_masked`,
        updatedAt: sql`excluded.updated_at`,
      },
      setWhere: sql`${verificationIndex.cpfHash} is distinct from excluded.cpf_hash`,
    })
    .returning({ publicId: verificationIndex.publicId });
  for (const row of rows) learned.set(row.publicId, `${row.cpfKeyId}:${row.cpfHash}`);
  return written.length;
}

const MAX_HITS = 20;

const SOURCES: Record<"cpf" | "ref_id", SearchSource[]> = {
  cpf: ["created_here", "unmasked_read", "event"],
  ref_id: ["created_here", "event"],
};

/** The search's answer: the hits, and with none, what the index can find and whether a CPF lookup is open to the member. */
export function searchAnswer(input: SearchInput, hits: SearchHit[], member: { mayLookUpCpf: boolean }): SearchResponse {
  if (hits.length > 0) return { hits };
  const by = "cpf" in input ? "cpf" : "ref_id";
  return { hits, miss: { by, sources: SOURCES[by], cpfLookup: by === "cpf" && member.mayLookUpCpf } };
}

/** The index's entries of one connection (the caller's) that match. */
export async function searchVerifications(db: Database, input: SearchInput, connectionId: string): Promise<SearchHit[]> {
  // A CPF under every key of the audit ring: rows not yet re-keyed after a rotation keep the old key's hash.
  const condition = "cpf" in input ? inArray(verificationIndex.cpfHash, cpfHashes(input.cpf)) : eq(verificationIndex.refId, input.ref_id);
  const rows = await db
    .select({
      publicId: verificationIndex.publicId,
      refId: verificationIndex.refId,
      documentMasked: verificationIndex.documentMasked,
      caseStatus: cases.status,
    })
    .from(verificationIndex)
    .leftJoin(cases, eq(cases.publicId, verificationIndex.publicId))
    .where(and(eq(verificationIndex.connectionId, connectionId), condition))
    .orderBy(desc(verificationIndex.updatedAt))
    .limit(MAX_HITS);
  return rows.map((row) => ({ ...row, caseStatus: row.caseStatus ?? null }));
}

/**
 * Called once by verification creation: remembers the caller's ref_id and the typed CPF (as its keyed
 * hash) for the search. Best effort: the verification exists upstream whatever happens here, so a
 * failure is logged and the creation still answers.
 */
export async function indexCreatedVerification(
  input: { refId: string; document: { type: string; number: string } },
  created: { publicId?: string },
): Promise<void> {
  if (!created.publicId) return;
  try {
    const cpf = input.document.type.toLowerCase() === "cpf" ? input.document.number : null;
    await indexVerifications(await getDb(), [{ publicId: created.publicId, refId: input.refId, cpf, createdHere: true }]);
  } catch (error) {
    log.warn("verification_index_failed", { error });
  }
}
