// The reason a member gives for reaching a person's data (a CPF lookup, a KYC session), kept on the audit
// trail: one rule for the forms (no zod, client components import it) and, in purpose-schema.ts, the routes.

import { hasUnsafeTextCharacters } from "./safe-text";

export const MIN_PURPOSE_LENGTH = 5;
export const MAX_PURPOSE_LENGTH = 300;

export type PurposeProblem = "required" | "too_short" | "too_long" | "invisible";

export function purposeProblem(input: string): PurposeProblem | undefined {
  const value = input.trim();
  if (value === "") return "required";
  if (value.length < MIN_PURPOSE_LENGTH) return "too_short";
  if (value.length > MAX_PURPOSE_LENGTH) return "too_long";
  // Bidirectional controls and zero-width characters (safe-text.ts): what the audit trail shows must be what was typed.
  if (hasUnsafeTextCharacters(input)) return "invisible";
  return undefined;
}
