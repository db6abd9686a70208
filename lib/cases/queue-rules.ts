/*
 * The queue's vocabulary and where one case stands: what the case queue's page draws (its tabs, sort, filters and each
 * row's stage), apart from the rest of the rules (./rules.ts), which read a verification and would bring its model into
 * the queue's first load. Pure, no imports; ./rules.ts exports them too.
 */

/**
 * The red flags a case stores. The first four may open a case (CASE_RED_FLAGS); `deceased` and `liveness` (a
 * liveness step neither approved nor pending) never open one on their own, but weigh in its priority (lib/cases/priority.ts).
 */
export const RED_FLAGS = ["pep", "restrictive_list", "low_facematch", "high_risk", "deceased", "liveness"] as const;
export type RedFlag = (typeof RED_FLAGS)[number];

export const RECOMMENDATIONS = ["approve", "reprove", "escalate"] as const;
export type Recommendation = (typeof RECOMMENDATIONS)[number];

/**
 * The queues. "open" is the work still to do here: a case whose recommendation is effective (confirmed, or
 * needing no confirmation) leaves it for "decided" (decided here, awaiting the provider's final status), and an
 * escalation for "escalated"; every case closes when the provider's final status arrives. The database applies
 * the same definitions (queueCondition, lib/cases/server/queue.ts); `stageOf` below is the one for a single case.
 */
export const QUEUES = ["open", "mine", "unassigned", "confirming", "escalated", "decided", "closed"] as const;
export type Queue = (typeof QUEUES)[number];

/** Where one case stands: the stage decides the queues it is listed in. */
export type CaseStage = "working" | "confirming" | "escalated" | "decided" | "closed";

/** Outcome states that make a recommendation effective: confirmed, or recorded without needing confirmation. */
export const EFFECTIVE_STATES = ["confirmed", "recorded"] as const;

export function stageOf(item: { status: string; recommendation: string | null; outcomeState: string | null }): CaseStage {
  if (item.status === "closed") return "closed";
  if (item.outcomeState === "pending_confirmation") return "confirming";
  const effective = (EFFECTIVE_STATES as readonly (string | null)[]).includes(item.outcomeState);
  if (effective && item.recommendation === "escalate") return "escalated";
  if (effective && item.recommendation) return "decided";
  return "working";
}

export const QUEUE_SORTS = ["age", "due", "priority"] as const;

export const AGE_BUCKETS = ["under_1d", "1d_3d", "3d_7d", "over_7d"] as const;
export type AgeBucket = (typeof AGE_BUCKETS)[number];
