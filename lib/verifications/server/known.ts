import "server-only";

import { inArray } from "drizzle-orm";

import { cpfHash } from "@/lib/audit-trail/server";
import { indexVerifications, learnUnmaskedCpfs } from "@/lib/cases/server/search";
import { verificationIndex } from "@/lib/cases/server/tables";
import { config } from "@/lib/config";
import type { Database } from "@/lib/db/client";
import { log } from "@/lib/log";
import { isValidCpf } from "@/lib/shared/cpf";
import type { Verification } from "@/lib/upstream/model/verification";
import type { CreateVerificationInput } from "@/lib/verifications/rules";

/*
 * What the dashboard itself knows of a verification, read from case work's search index
 * (verification_index, lib/cases/server/search.ts): the ref_id typed at a creation here and the CPF's keyed hash,
 * from that creation or from a view whose document came unmasked. The hash lets the audit trail tag every
 * view of the verification, masked or not, so the audit page's CPF search finds all the events about a
 * person. No CPF is stored, only the hash.
 *
 * An event's CPF hash is made under the key that chains it (the audit ring's current key, whose id the event
 * keeps), so an index entry still under an older key (a rotation the re-keying job, lib/cases/server/rekey.ts, has
 * not reached yet) does not tag an event: its hash would outlive the key that could find it.
 */

export interface KnownVerification {
  refId: string | null;
  cpfHash: string | null;
  /** The audit key `cpfHash` was made under (null with no hash). */
  cpfKeyId: string | null;
}

/** The keyed hash of a creation's CPF, or undefined when it names another document type. */
export function creationCpfHash(input: CreateVerificationInput): string | undefined {
  return input.document.type.toLowerCase() === "cpf" && isValidCpf(input.document.number) ? cpfHash(input.document.number) : undefined;
}

/**
 * The CPF hash of a viewed verification: from its document when unmasked (and indexed for the masked views
 * to come), else from what the index already knows; undefined when unknown.
 */
export async function subjectCpfHashOf(db: Database, verification: Verification): Promise<string | undefined> {
  if (!verification.documentMasked && isValidCpf(verification.document)) {
    // One idempotent upsert: several instances viewing at once all write the same value.
    await indexVerifications(db, [{ publicId: verification.publicId, cpf: verification.document }]);
    return cpfHash(verification.document);
  }
  const known = (await knownVerificationsOf(db, [verification.publicId])).get(verification.publicId);
  return known?.cpfHash && known.cpfKeyId === config().secrets.auditHash.current.id ? known.cpfHash : undefined;
}

/**
 * Teaches the search index the CPFs of a list page read with unmasked data (the service key's permission; the
 * member's own does not matter, as only the keyed hash is kept). A masked page teaches nothing. Best effort:
 * the page is shown whatever happens here.
 */
export async function learnFromListPage(db: Database, items: Verification[]): Promise<void> {
  try {
    await learnUnmaskedCpfs(db, items);
  } catch (error) {
    log.warn("verification_index_failed", { error });
  }
}

export async function knownVerificationsOf(db: Database, publicIds: string[]): Promise<Map<string, KnownVerification>> {
  if (publicIds.length === 0) return new Map();
  const rows = await db
    .select({
      publicId: verificationIndex.publicId,
      refId: verificationIndex.refId,
      cpfHash: verificationIndex.cpfHash,
      cpfKeyId: verificationIndex.cpfKeyId,
    })
    .from(verificationIndex)
    .where(inArray(verificationIndex.publicId, publicIds));
  return new Map(rows.map((row) => [row.publicId, { refId: row.refId, cpfHash: row.cpfHash, cpfKeyId: row.cpfKeyId }]));
}
