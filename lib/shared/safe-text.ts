// Text one person types and others read (names, role names, key labels, case notes and comments,
// purposes) must show what it says. Bidirectional controls can make "gpj.exe" read as "exe.jpg" and
// reorder a sentence; zero-width characters hide inside a name so two names that look alike differ. Both
// are refused, never stripped silently: the writer sees which field and why. No zod here (the forms import
// it in the browser); safe-text-schema.ts is the zod side.

/**
 * The characters refused, by Unicode property rather than a list, so a character the list forgot is not the way
 * through: every format character (`Cf`: bidirectional embeddings, overrides, isolates and marks, zero-width space,
 * non-joiner and joiner, word joiner, the invisible operators U+2061–U+2064, U+180E, the byte-order mark, the soft
 * hyphen U+00AD, tag characters U+E0001 and U+E0020–U+E007F) and every default-ignorable code point (what renders
 * as nothing: variation selectors U+FE00–U+FE0F and U+E0100–U+E01EF, the combining grapheme joiner, Hangul fillers,
 * the rest of the tag block), plus the line and paragraph separators U+2028 and U+2029, which break a line where
 * nothing shows one. Emoji joined by U+200D, or styled by a variation selector, are refused with them. Newlines and
 * tabs (control characters, not format characters) are left to each field's own rule: a note may hold lines.
 */
export const UNSAFE_TEXT_PATTERN = /[\p{Cf}\p{Default_Ignorable_Code_Point}\u2028\u2029]/u;

/** The English refusal, after the field's name ("name contains invisible or text-direction characters"). */
export const UNSAFE_TEXT_MESSAGE = "contains invisible or text-direction characters";

/** True when the text holds a bidirectional control or a zero-width character. */
export function hasUnsafeTextCharacters(value: string): boolean {
  return UNSAFE_TEXT_PATTERN.test(value);
}
