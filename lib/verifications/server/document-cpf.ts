import "server-only";

import { cpfHashes } from "@/lib/audit-trail/server";
import { indexedCpfHash } from "@/lib/cases/server/related";
import type { Database } from "@/lib/db/client";
import { cpfDigits, formatCpf, isValidCpf } from "@/lib/shared/cpf";
import { AppError } from "@/lib/shared/errors";
import type { Verification } from "@/lib/upstream/model/verification";

/*
 * A verification's CPF, for what the server does with the person's document (a re-verification, the record
 * lookup beside the document): the one the service shows when it shows it unmasked (the API key's unmasked
 * permission); otherwise the member types it, and it must match this verification's (its CPF hash in the search
 * index, else the digits its masked form shows). The typed CPF travels in a request body, never in an address.
 */

/** Whether a typed CPF can be this masked document: each digit the mask shows is the same at the same place. */
export function matchesMasked(typed: string, masked: string): boolean {
  const whole = formatCpf(typed);
  if (whole.length !== masked.length) return false;
  let shown = 0;
  for (let index = 0; index < masked.length; index += 1) {
    const char = masked[index]!;
    if (/\d/.test(char)) {
      shown += 1;
      if (whole[index] !== char) return false;
    } else if (char !== "*" && char !== whole[index]) return false;
  }
  return shown > 0;
}

/** The CPF's 11 digits, or a validation error on `field` (the body field the member typed it in). */
export async function verificationCpf(db: Database, verification: Verification, typed: string | undefined, field: string): Promise<string> {
  if (!verification.documentMasked && isValidCpf(verification.document)) return cpfDigits(verification.document);
  const refuse = (message: string) => new AppError("validation", `Invalid input: ${field}: ${message}`, { fields: [field] });
  if (!typed) throw refuse("is required: the service shows this verification's document masked, so type the person's CPF.");
  const known = await indexedCpfHash(db, verification.publicId);
  // The index's hash may be under any key of the audit ring (an entry not re-keyed since a rotation).
  const matches = known ? cpfHashes(typed).includes(known) : matchesMasked(typed, verification.document);
  if (!matches) throw refuse("does not match this verification's document.");
  return cpfDigits(typed);
}
