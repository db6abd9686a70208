import "server-only";

import type { UnreadableText } from "@/lib/cases/types";
import { config } from "@/lib/config";
import { isSealedText, keyById, openText, sealedTextKeyId, sealText, type KeyRing } from "@/lib/keys/ring";

/*
 * Free text about a case is sealed at rest: a note's, an outcome's and a confirmation's text
 * (case_entries.text) and the outcome comment (cases.outcome_comment), often personal data typed by an
 * analyst, and the person's name the verification gave (cases.person_name). AES-256-GCM under the data key ring (DATA_ENCRYPTION_SECRET, lib/keys/ring.ts), one purpose per
 * column, so a text copied from one column into the other does not open. A database dump shows envelopes
 * `v1.<key id>.…` and nothing of the words.
 *
 * Every write and read of these columns goes through here. A value that is not an envelope is clear text written
 * before sealing existed only while such rows may remain: until the re-seal job (./text-reseal.ts) has sealed them
 * all and recorded so (`clearTextRetired` in its state). Until then it reads as itself (`legacyClear`); after, it
 * is nothing the dashboard wrote (a row written around the sealing, by hand or by a bug) and is shown as
 * unsealed, never as the words, and the job does not seal it either (that would launder it). A value sealed
 * under a key the ring no longer holds, or altered, is never guessed at: the reader gets no text and the key
 * id, and the page shows a placeholder saying so.
 */

export const CASE_TEXT_PURPOSES = {
  entry: "case-entry-text",
  outcomeComment: "case-outcome-comment",
  // The person's name as the verification gave it (cases.person_name): sealed from its first write, so it has no
  // clear rows from before sealing; read it with `PERSON_NAME_LEGACY` below.
  personName: "case-person-name",
} as const;

export type CaseTextColumn = keyof typeof CASE_TEXT_PURPOSES;

function dataRing(): KeyRing {
  return config().secrets.dataEncryption;
}

/** The value to store for `text` (null stays null), sealed under the ring's current key. */
export function sealCaseText(column: CaseTextColumn, text: string | null, ring: KeyRing = dataRing()): string | null {
  return text === null ? null : sealText(ring, CASE_TEXT_PURPOSES[column], text);
}

export interface OpenedCaseText {
  /** The words, or null when nothing is stored or the stored value cannot be opened. */
  text: string | null;
  /** Set when a value is stored but cannot be opened. */
  unreadable: UnreadableText | null;
}

/** Whether a value that is not an envelope may still be clear text from before sealing (see above). */
export type LegacyClear = "accepted" | "retired";

/** The person's name was sealed from the column's first day: a value without an envelope is never the dashboard's. */
export const PERSON_NAME_LEGACY: LegacyClear = "retired";

const UNSEALED: UnreadableText = { keyId: "", retired: false, unsealed: true };

/**
 * A stored value read back: sealed (opened with the key its envelope names), or clear from before sealing while
 * `legacyClear` is "accepted" (else it is refused as unsealed).
 */
export function openCaseText(
  column: CaseTextColumn,
  stored: string | null,
  legacyClear: LegacyClear,
  ring: KeyRing = dataRing(),
): OpenedCaseText {
  if (stored === null) return { text: null, unreadable: null };
  if (!isSealedText(stored)) return legacyClear === "accepted" ? { text: stored, unreadable: null } : { text: null, unreadable: UNSEALED };
  const text = openText(ring, CASE_TEXT_PURPOSES[column], stored);
  if (text !== null) return { text, unreadable: null };
  const keyId = sealedTextKeyId(stored)!;
  return { text: null, unreadable: { keyId, retired: keyById(ring, keyId) === undefined } };
}

/** The words for a plain-text reader (a report, an export): the text, or a placeholder naming the key. */
export function caseTextOrPlaceholder(
  column: CaseTextColumn,
  stored: string | null,
  legacyClear: LegacyClear,
  ring: KeyRing = dataRing(),
): string | null {
  const { text, unreadable } = openCaseText(column, stored, legacyClear, ring);
  if (!unreadable) return text;
  if (unreadable.unsealed) return "[stored without encryption: not shown]";
  return unreadable.retired
    ? `[sealed under retired key ${unreadable.keyId}]`
    : `[sealed text under key ${unreadable.keyId} does not open]`;
}

/**
 * What the re-seal job does with a stored value: nothing (empty, or already under the current key), seal it
 * (clear text from before sealing), re-seal it (under an older key the ring still holds), or count it as
 * unreadable (its key is gone from the ring, or it was altered: left as it is).
 */
export type ResealStep = { kind: "none" } | { kind: "seal" | "reseal"; value: string } | { kind: "unreadable"; keyId: string };

export function resealStep(
  column: CaseTextColumn,
  stored: string | null,
  legacyClear: LegacyClear,
  ring: KeyRing = dataRing(),
): ResealStep {
  if (stored === null || sealedTextKeyId(stored) === ring.current.id) return { kind: "none" };
  const { text, unreadable } = openCaseText(column, stored, legacyClear, ring);
  if (unreadable) return { kind: "unreadable", keyId: unreadable.keyId };
  return { kind: isSealedText(stored) ? "reseal" : "seal", value: sealCaseText(column, text!, ring)! };
}
