import "server-only";

import { desc, eq, sql } from "drizzle-orm";

import { cpfHash } from "@/lib/audit-trail/server";
import type { SearchInput } from "@/lib/cases/schemas";
import { cases, verificationIndex } from "@/lib/cases/server/schema";
import { getDb, type Database } from "@/lib/db/client";
import { log } from "@/lib/log";
import { isValidCpf, maskCpf } from "@/lib/shared/cpf";

import type { SearchHit } from "../types";

/*
 * The search index: verifications by the caller's `ref_id` and by CPF, the CPF kept only as the audit
 * trail's keyed hash (same key, so one typed CPF finds both its events and its verifications) plus its
 * masked form. Fed by creation here (ref_id and the typed CPF), by events (ref_id) and by the sync and
 * ingestion (the document, hashed only when the upstream shows it unmasked).
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
  const rows = entries.map((entry) => {
    const cpf = entry.cpf && isValidCpf(entry.cpf) ? entry.cpf : null;
    return {
      publicId: entry.publicId,
      refId: entry.refId || null,
      cpfHash: cpf ? cpfHash(cpf) : null,
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
        documentMasked: sql`coalesce(excluded.document_masked, ${verificationIndex.documentMasked})`,
        createdHere: sql`${verificationIndex.createdHere} or excluded.created_here`,
        updatedAt: sql`excluded.updated_at`,
      },
    });
}

const MAX_HITS = 20;

export async function searchVerifications(db: Database, input: SearchInput): Promise<SearchHit[]> {
  const condition = "cpf" in input ? eq(verificationIndex.cpfHash, cpfHash(input.cpf)) : eq(verificationIndex.refId, input.ref_id);
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
