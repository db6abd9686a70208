/*
 * Routing (issue 23), pure and shared with the browser: which queue a new case goes to. The rules are read
 * in order and the first whose every condition holds names the queue; none matching, the default queue.
 *
 * What a condition can be asked of, and when: routing happens once, when the sync or a service event opens
 * the case, from the verification as read then. Red flags and the case's age are on the case row; flow,
 * journey and the risk score are not stored on the row, only known from the verification at that moment. A
 * case opened from an event whose verification could not be read (lib/cases/server/ingest.ts) knows none of
 * them: a rule naming flows, journeys or a minimum risk does not match it (an unknown is never guessed to
 * match). Age is the time since the verification's creation (the case's clock, `openedAt`) at routing time.
 */

/**
 * What a rule matches; every condition given must hold (an empty rule matches every case). Also the stored shape
 * (case_routing_rules.conditions, lib/cases/server/tables.ts).
 */
export interface RoutingConditions {
  /** Any of these red flags (lib/cases/rules.ts RED_FLAGS). */
  flags?: string[];
  /** One of these flows. */
  flows?: string[];
  /** One of these journeys. */
  journeys?: string[];
  /** Risk score at or above this (0..100). */
  minRisk?: number;
  /** At least this many hours since the verification was created. */
  minAgeHours?: number;
}

export interface RoutingRule {
  queueId: string;
  conditions: RoutingConditions;
}

/** What routing knows of a case when it opens. */
export interface RoutableCase {
  flags: readonly string[];
  flow?: string | null;
  journey?: string | null;
  riskScore?: number | null;
  /** The case's clock start (the verification's creation, else first sight). */
  openedAt: Date;
}

export const DEFAULT_QUEUE = "00000000-0000-4000-8000-000000000001";

export function ruleMatches(item: RoutableCase, conditions: RoutingConditions, now: Date): boolean {
  const { flags, flows, journeys, minRisk, minAgeHours } = conditions;
  if (flags && flags.length > 0 && !flags.some((flag) => item.flags.includes(flag))) return false;
  if (flows && flows.length > 0 && !(item.flow && flows.includes(item.flow))) return false;
  if (journeys && journeys.length > 0 && !(item.journey && journeys.includes(item.journey))) return false;
  if (minRisk !== undefined && !(typeof item.riskScore === "number" && item.riskScore >= minRisk)) return false;
  if (minAgeHours !== undefined && (now.getTime() - item.openedAt.getTime()) / 3_600_000 < minAgeHours) return false;
  return true;
}

/** The queue of the first matching rule, else the default queue. */
export function routeCase(item: RoutableCase, rules: readonly RoutingRule[], now = new Date(), defaultQueueId = DEFAULT_QUEUE): string {
  return rules.find((rule) => ruleMatches(item, rule.conditions, now))?.queueId ?? defaultQueueId;
}
