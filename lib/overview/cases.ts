import type { AgeBucket, Recommendation } from "@/lib/cases/rules";

// Shared (no server imports): the overview's case-work figures as the page draws them.

export interface CaseFigures {
  backlog: Record<AgeBucket, number>;
  open: number;
  /** Open cases past their due time now. */
  overdue: number;
  /** Cases closed in the period, and how many of them closed after their due time. */
  closedInPeriod: number;
  closedLate: number;
  /**
   * Cases closed in the period with an effective recommendation (confirmed, or recorded without needing
   * confirmation): counts per recommendation and upstream final status.
   */
  outcomes: Array<{ recommendation: Recommendation; finalStatus: string; count: number }>;
  /** Of those, the ones lib/cases marked as contradicting the upstream's final status. */
  disagreements: number;
  /** The period's bounds as instants, for the queue's closed-in-period filter behind these numbers. */
  closedRange: { from: string; to: string };
}

/**
 * The recommendations-against-final-status table, as the page and its CSV lay it out: one column per final
 * status seen (sorted), one row per recommendation (RECOMMENDATIONS), 0 where nothing was counted.
 */
export function outcomeMatrix(outcomes: CaseFigures["outcomes"]): {
  finals: string[];
  count(recommendation: Recommendation, finalStatus: string): number;
} {
  return {
    finals: [...new Set(outcomes.map((row) => row.finalStatus))].sort(),
    count: (recommendation, finalStatus) =>
      outcomes.find((row) => row.recommendation === recommendation && row.finalStatus === finalStatus)?.count ?? 0,
  };
}
