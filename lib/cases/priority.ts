/*
 * A case's priority in the queue, computed from what matters to the analyst, with the reasons it is computed
 * from (the row says "PEP · due in 2 h", not a bare "High"). Pure and shared (no server imports): the queue's
 * rows carry it, and the sort by priority runs the same weights as SQL (lib/cases/server/priority-sql.ts; a test
 * runs both over every combination). The formula, documented in docs/cases.md#priority:
 *
 *   score = the points of each red flag the case shows
 *         + the points of its time left to due (overdue, due within 2 h, due within 8 h)
 *         + the re-verification penalty while the person has not finished the one asked (nothing to do until then)
 *
 * Cases rank by score, then by due time (the most overdue, or the soonest due, first), then by id. So when every
 * case is overdue, the flags decide first and how overdue next.
 */

/** Points of each red flag the case stores (lib/cases/rules.ts RED_FLAGS): who the person is first, then the checks. */
export const FLAG_POINTS = {
  restrictive_list: 8,
  deceased: 8,
  pep: 6,
  liveness: 4,
  low_facematch: 4,
  high_risk: 3,
} as const satisfies Record<string, number>;
export type PriorityFlag = keyof typeof FLAG_POINTS;

/** Points for the time left to due, the first band that holds: overdue, then due within 2 h, then within 8 h. */
export const DUE_POINTS = [
  { withinHours: 0, points: 6 },
  { withinHours: 2, points: 4 },
  { withinHours: 8, points: 2 },
] as const;

/** Added while the case waits for a re-verification the person has not finished: more than every other factor together, so it parks below all the work that can be done. */
export const REVERIFICATION_WAITING_POINTS = -40;

/** The score from which a case reads as high, and as medium. */
export const PRIORITY_LEVELS = { high: 8, medium: 4 } as const;

export type PriorityLevel = "high" | "medium" | "normal";

export type PriorityReason =
  { kind: "flag"; flag: PriorityFlag } | { kind: "overdue"; hours: number } | { kind: "due"; hours: number } | { kind: "reverification" };

export interface CasePriority {
  score: number;
  level: PriorityLevel;
  /** Why, most weighty first: the flags, then the time, then a re-verification waited for. */
  reasons: PriorityReason[];
}

export interface PriorityInput {
  flags: readonly string[];
  dueAt: string | Date;
  /** The case waits for a re-verification the person has not finished. */
  reverificationWaiting: boolean;
}

const HOUR = 3_600_000;

function isPriorityFlag(flag: string): flag is PriorityFlag {
  return Object.hasOwn(FLAG_POINTS, flag);
}

/** The points of a case's time left to due, in hours (negative: overdue). */
export function duePoints(hoursLeft: number): number {
  return DUE_POINTS.find((band) => hoursLeft < band.withinHours)?.points ?? 0;
}

export function priorityLevel(score: number): PriorityLevel {
  if (score >= PRIORITY_LEVELS.high) return "high";
  if (score >= PRIORITY_LEVELS.medium) return "medium";
  return "normal";
}

/** The case's priority at `now`: its score, level and reasons. */
export function casePriority(input: PriorityInput, now: number): CasePriority {
  const flags = [...new Set(input.flags.filter(isPriorityFlag))].sort((a, b) => FLAG_POINTS[b] - FLAG_POINTS[a]);
  const hoursLeft = (new Date(input.dueAt).getTime() - now) / HOUR;
  const timePoints = duePoints(hoursLeft);
  const reasons: PriorityReason[] = flags.map((flag) => ({ kind: "flag", flag }));
  // The time is a reason when it scores: overdue, or due within the last band.
  if (hoursLeft < 0) reasons.push({ kind: "overdue", hours: Math.floor(-hoursLeft) });
  else if (timePoints > 0) reasons.push({ kind: "due", hours: Math.ceil(hoursLeft) });
  if (input.reverificationWaiting) reasons.push({ kind: "reverification" });
  const score =
    flags.reduce((sum, flag) => sum + FLAG_POINTS[flag], 0) +
    timePoints +
    (input.reverificationWaiting ? REVERIFICATION_WAITING_POINTS : 0);
  return { score, level: priorityLevel(score), reasons };
}

/** The queue's order by priority: score, then due time (most overdue first), then id. Negative: `a` comes first. */
export function comparePriority(a: PriorityInput & { id: string }, b: PriorityInput & { id: string }, now: number): number {
  return (
    casePriority(b, now).score - casePriority(a, now).score ||
    new Date(a.dueAt).getTime() - new Date(b.dueAt).getTime() ||
    (a.id < b.id ? -1 : a.id > b.id ? 1 : 0)
  );
}
