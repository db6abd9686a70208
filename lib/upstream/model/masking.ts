/*
 * The dashboard's own masking (docs/security.md#sensitive-data): a member without `personal_data.unmasked`
 * sees document, names and birth date masked, whatever the API key returns. One function for every path
 * (list, detail, export); applied on the server before anything leaves, so neither the page HTML nor the
 * react-query cache ever holds the unmasked value. Shared (no server imports): pure, so a test can run it on
 * any shape. The masks are the service's own (what it answers a key without the unmasked permission):
 * `***.456.789-**`, the first letter of each word then `***`, `****-**-**`.
 */

import type { RestrictiveListEntry, Verification, VerificationNotice, VerificationStep } from "./verification";

export const MASKED_BIRTH_DATE = "****-**-**";

/** "123.456.789-09" (any punctuation) → "***.456.789-**"; any other document keeps no letter or digit. */
export function maskDocument(document: string): string {
  if (document.includes("*")) return document;
  const digits = document.replace(/\D/g, "");
  if (digits.length === 11) return `***.${digits.slice(3, 6)}.${digits.slice(6, 9)}-**`;
  return document.replace(/[A-Za-z0-9]/g, "*");
}

/** "Maria da Silva" → "M*** d*** S***". */
export function maskName(name: string): string {
  return name
    .split(/\s+/)
    .filter((word) => word !== "")
    .map((word) => (word.includes("*") ? word : `${[...word][0]}***`))
    .join(" ");
}

// A CPF anywhere in a free value (an unknown field the service added): 11 digits, punctuated or not.
const CPF_RUN = /(?<!\d)\d{3}\.?\d{3}\.?\d{3}-?\d{2}(?!\d)/g;

/** Masks every CPF-shaped run inside a value the contract does not describe, at any depth. */
function scrub(value: unknown): unknown {
  if (typeof value === "string") return value.replace(CPF_RUN, (run) => maskDocument(run));
  if (Array.isArray(value)) return value.map(scrub);
  if (value && typeof value === "object") return Object.fromEntries(Object.entries(value).map(([key, inner]) => [key, scrub(inner)]));
  return value;
}

const scrubRecord = (record: Record<string, unknown>) => scrub(record) as Record<string, unknown>;

function maskStep(step: VerificationStep): VerificationStep {
  const notices: VerificationNotice[] = step.notices.map((notice) => ({ ...notice, message: scrub(notice.message) as string }));
  return { ...step, notices, extra: scrubRecord(step.extra) };
}

function maskListEntry(entry: RestrictiveListEntry): RestrictiveListEntry {
  return { ...entry, extra: scrubRecord(entry.extra) };
}

/** The verification as a member without `personal_data.unmasked` may see it. Idempotent. */
export function maskVerification(verification: Verification): Verification {
  const { person } = verification;
  return {
    ...verification,
    document: maskDocument(verification.document),
    documentMasked: true,
    maskedBy: verification.documentMasked ? (verification.maskedBy ?? "service") : "dashboard",
    person: {
      ...person,
      ...(person.name !== undefined ? { name: maskName(person.name) } : {}),
      ...(person.motherName !== undefined ? { motherName: maskName(person.motherName) } : {}),
      ...(person.birthDate !== undefined ? { birthDate: MASKED_BIRTH_DATE } : {}),
    },
    steps: verification.steps.map(maskStep),
    restrictiveLists: verification.restrictiveLists.map(maskListEntry),
    extra: scrubRecord(verification.extra),
  };
}

/** What the member may see: the verification as the key gave it, or masked by the dashboard. */
export function verificationFor(verification: Verification, unmasked: boolean): Verification {
  return unmasked ? verification : maskVerification(verification);
}
