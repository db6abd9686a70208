import { REASON_CODES } from "@/lib/cases/rules";

/** The reasons cited (count above zero), in the catalogue's order, then any older code the history still holds. */
export function citedReasons(reasons: Record<string, number>): string[] {
  const cited = Object.keys(reasons).filter((reason) => (reasons[reason] ?? 0) > 0);
  const known: readonly string[] = REASON_CODES;
  return [...known.filter((reason) => cited.includes(reason)), ...cited.filter((reason) => !known.includes(reason)).sort()];
}
