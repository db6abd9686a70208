// The lookup and KYC forms' rules, without zod (client components import them); lookups.ts builds the
// route handlers' schemas on them.

export const LOOKUP_SOURCES = ["receita", "history"] as const;
export type LookupSource = (typeof LOOKUP_SOURCES)[number];

export const MIN_PURPOSE_LENGTH = 5;
export const MAX_PURPOSE_LENGTH = 300;

export type PurposeProblem = "required" | "too_short" | "too_long";

export function purposeProblem(input: string): PurposeProblem | undefined {
  const value = input.trim();
  if (value === "") return "required";
  if (value.length < MIN_PURPOSE_LENGTH) return "too_short";
  if (value.length > MAX_PURPOSE_LENGTH) return "too_long";
  return undefined;
}
