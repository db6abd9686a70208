import "server-only";

import { desc, eq, inArray, sql } from "drizzle-orm";

import { cpfHash, cpfHashes } from "@/lib/audit-trail/server";
import type { SearchInput } from "@/lib/cases/schemas";
import { cases, verificationIndex } from "@/lib/cases/server/schema";
import { config } from "@/lib/config";
import { getDb, type Database } from "@/lib/db/client";
import { log } from "@/lib/log";
import { isValidCpf, maskCpf } from "@/lib/shared/cpf";

import type { SearchHit, SearchResponse, SearchSource } from "../types";

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
 */

export interface IndexEntry {
  publicId: string;
  refId?: string | null;
  /** Raw CPF; only its keyed hash and masked form are stored. */
  cpf?: string | null;
  documentMasked?: string | null;
  createdHere?: boolean;
}

/** Upserts index entries; a field already known is kept when the new observation lacks it. */
export async function indexVerifications(db: Database, entries: IndexEntry[], now = new Date()): Promise<void> {
  if (entries.length === 0) return;
  const key = config().secrets.auditHash.current;
  const rows = entries.map((entry) => {
    const cpf = entry.cpf && isValidCpf(entry.cpf) ? entry.cpf : null;
    return {
      publicId: entry.publicId,
      refId: entry.refId || null,
      cpfHash: cpf ? cpfHash(cpf, key.secret) : null,
      cpfKeyId: cpf ? key.id : null,
      documentMasked: cpf ? maskCpf(cpf) : (entry.documentMasked ?? null),
      createdHere: entry.createdHere ?? false,
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

/**
 * Learns the CPFs of a page of verifications read unmasked (a list page, an export page): one statement for the
 * page, writing only rows whose CPF was not known yet, so reading the same page again writes nothing. Masked
 * documents teach nothing and are skipped: the index never holds a masked guess. A row hashed under an older audit
 * key is re-keyed by the same write (its hash differs under the current key).
 */
export async function learnUnmaskedCpfs(
  db: Database,
  items: Array<{ publicId: string; document: string; documentMasked: boolean }>,
  now = new Date(),
): Promise<number> {
  const key = config().secrets.auditHash.current;
  const rows = items
    .filter((item) => !item.documentMasked && isValidCpf(item.document))
    .map((item) => ({
      publicId: item.publicId,
      cpfHash: cpfHash(item.document, key.secret),
      cpfKeyId: key.id,
      documentMasked: maskCpf(item.document),
      updatedAt: now,
    }));
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

export async function searchVerifications(db: Database, input: SearchInput): Promise<SearchHit[]> {
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
    .where(condition)
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
