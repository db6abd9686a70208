// The lookup and KYC forms' rules, without zod (client components import them); lookups.ts builds the
// route handlers' schemas on them.

export const LOOKUP_SOURCES = ["receita", "history"] as const;
export type LookupSource = (typeof LOOKUP_SOURCES)[number];

// The purpose rule is shared with the KYC form (lib/shared/purpose.ts).
export { purposeProblem, type PurposeProblem } from "@/lib/shared/purpose";
