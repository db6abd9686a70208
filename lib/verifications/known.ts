import "server-only";

import { inArray, sql } from "drizzle-orm";

import { cpfHash } from "@/lib/audit";
import type { Database } from "@/lib/db/client";
import { knownVerifications } from "@/lib/db/schema";
import type { Verification } from "@/lib/domain/verification";
import { isValidCpf } from "@/lib/validations/cpf";
import { createVerificationSchema } from "@/lib/validations/verifications";

/*
 * What the dashboard itself knows of a verification (table known_verifications): the ref_id typed at a
 * creation here, and the CPF's keyed hash, from that creation or from a view whose document came
 * unmasked. The hash lets the audit trail tag every view of the verification, masked or not, so the audit
 * page's CPF search finds all the events about a person. No CPF is stored, only the hash.
 */

export interface KnownVerification {
  refId: string | null;
  cpfHash: string | null;
}

/** The keyed hash of a creation body's CPF, or undefined when it names another document type. */
export function creationCpfHash(body: unknown): string | undefined {
  const parsed = createVerificationSchema.safeParse(body);
  if (!parsed.success || parsed.data.document.type.toLowerCase() !== "cpf") return undefined;
  return cpfHash(parsed.data.document.number);
}

/** After a creation here: its ref_id and CPF hash. A second write (a retried creation) keeps the first values. */
export async function rememberCreated(db: Database, publicId: string, body: unknown): Promise<void> {
  const parsed = createVerificationSchema.safeParse(body);
  if (!parsed.success) return;
  await db
    .insert(knownVerifications)
    .values({ publicId, refId: parsed.data.refId, cpfHash: creationCpfHash(body) ?? null })
    .onConflictDoUpdate({
      target: knownVerifications.publicId,
      set: {
        refId: sql`coalesce(${knownVerifications.refId}, excluded.ref_id)`,
        cpfHash: sql`coalesce(${knownVerifications.cpfHash}, excluded.cpf_hash)`,
        updatedAt: sql`now()`,
      },
    });
}

/**
 * The CPF hash of a viewed verification: from its document when unmasked (and remembered for the masked
 * views to come), else from what a creation here remembered; undefined when unknown.
 */
export async function subjectCpfHashOf(db: Database, verification: Verification): Promise<string | undefined> {
  if (!verification.documentMasked && isValidCpf(verification.document)) {
    const hash = cpfHash(verification.document);
    // Single statement, idempotent: several instances viewing at once all write the same value.
    await db
      .insert(knownVerifications)
      .values({ publicId: verification.publicId, cpfHash: hash })
      .onConflictDoUpdate({ target: knownVerifications.publicId, set: { cpfHash: hash, updatedAt: sql`now()` } });
    return hash;
  }
  const [row] = await db
    .select({ cpfHash: knownVerifications.cpfHash })
    .from(knownVerifications)
    .where(inArray(knownVerifications.publicId, [verification.publicId]));
  return row?.cpfHash ?? undefined;
}

export async function knownVerificationsOf(db: Database, publicIds: string[]): Promise<Map<string, KnownVerification>> {
  if (publicIds.length === 0) return new Map();
  const rows = await db
    .select({ publicId: knownVerifications.publicId, refId: knownVerifications.refId, cpfHash: knownVerifications.cpfHash })
    .from(knownVerifications)
    .where(inArray(knownVerifications.publicId, publicIds));
  return new Map(rows.map((row) => [row.publicId, { refId: row.refId, cpfHash: row.cpfHash }]));
}
