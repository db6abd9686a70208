import { z } from "zod";

import { hasUnsafeTextCharacters, UNSAFE_TEXT_MESSAGE } from "./safe-text";

// Server side: the safe-text rule (safe-text.ts) for zod 4 schemas. The refusal is an issue on the field
// itself, so the API's 400 names the field (lib/api/errors.ts) and says what was refused.

/** The check, for `.check(...)` on any string schema: `z.string().max(200).check(refuseUnsafeText())`. */
export function refuseUnsafeText(message: string = UNSAFE_TEXT_MESSAGE) {
  return z.refine<string>((value) => !hasUnsafeTextCharacters(value), { message, params: { problem: "invisible" } });
}

/** A string schema with the safe-text rule added: `safeText(z.string().max(200))`. */
export function safeText<T extends z.ZodType<string, string>>(schema: T, message: string = UNSAFE_TEXT_MESSAGE): T {
  return schema.check(refuseUnsafeText(message));
}
