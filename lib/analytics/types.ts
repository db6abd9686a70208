import type { AnalyticsPeriod } from "./period";
import type { DurationSummary } from "./stats";

// Shared (no server imports): the team's numbers as GET /api/analytics/team answers them and the page draws them.

/** One member's figures, or the team's, for the period. Durations in seconds. */
export interface AnalyticsFigures {
  /**
   * Cases whose recommendation became effective in the period (an approve or a reprove confirmed by a second
   * member, or recorded without needing one), counted for the member who recommended.
   */
  decided: number;
  approved: number;
  reproved: number;
  /** From the case's opening to the effective recommendation, over the decided cases. */
  toRecommendation: DurationSummary;
  /** From the case's opening to its confirmation by a second member, over the decided cases that needed one. */
  toConfirmation: DurationSummary;
  /** Decided cases decided by their due time (the case's SLA: opening plus CASE_SLA_HOURS). */
  slaMet: number;
  /** Confirmations in the period that disagreed with the recommendation (counted for its author). */
  disagreeingConfirmations: number;
  /** Cases escalated in the period (by the member; the team's adds the automatic escalations past due time). */
  escalations: number;
  /** Re-verifications asked in the period. */
  reverifications: number;
  /** Of the decided cases, those whose final status the provider has given, and those where it contradicts the recommendation. */
  finalKnown: number;
  contradicted: number;
  /** How often each reason was cited in the recommendations recorded in the period (reason code → count). */
  reasons: Record<string, number>;
}

export interface MemberAnalytics extends AnalyticsFigures {
  memberId: string;
  /** The member's name, or their email when they have none. */
  name: string;
}

export interface TeamAnalytics {
  period: AnalyticsPeriod;
  /** The time zone the period's days are read in. */
  timeZone: string;
  team: AnalyticsFigures & {
    /** Of the team's escalations, those made by the SLA job (past due time, nobody's). */
    automaticEscalations: number;
  };
  /** Every member with something counted in the period, by name. */
  members: MemberAnalytics[];
}
