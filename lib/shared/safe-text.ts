// Text one person types and others read (names, role names, key labels, case notes and comments,
// purposes) must show what it says. Bidirectional controls can make "gpj.exe" read as "exe.jpg" and
// reorder a sentence; zero-width characters hide inside a name so two names that look alike differ. Both
// are refused, never stripped silently: the writer sees which field and why. No zod here (the forms import
// it in the browser); safe-text-schema.ts is the zod side.

/**
 * The characters refused: embeddings and overrides (U+202A–U+202E), isolates (U+2066–U+2069), the
 * left-to-right, right-to-left and Arabic letter marks (U+200E, U+200F, U+061C), zero-width space,
 * non-joiner and joiner (U+200B–U+200D), the word joiner (U+2060) and the zero-width no-break space /
 * byte-order mark (U+FEFF).
 */
export const UNSAFE_TEXT_PATTERN = /[\u202A-\u202E\u2066-\u2069\u200E\u200F\u061C\u200B-\u200D\u2060\uFEFF]/;

/** The English refusal, after the field's name ("name contains invisible or text-direction characters"). */
export const UNSAFE_TEXT_MESSAGE = "contains invisible or text-direction characters";

/** True when the text holds a bidirectional control or a zero-width character. */
export function hasUnsafeTextCharacters(value: string): boolean {
  return UNSAFE_TEXT_PATTERN.test(value);
}
