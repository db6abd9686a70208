import { isDecided, type Verification } from "@/lib/upstream/model/verification";
import { redFlags, type RedFlag as VerificationRedFlag } from "@/lib/cases/red-flags";

/*
 * The rules of case work, pure and shared (no server imports): which verification needs a person, its red
 * flags and priority, which outcome needs a second person, and when the upstream's final status disagrees
 * with the case's recommendation. The database layer (store.ts, actions.ts) applies the same rules in its
 * conditional statements; tests pin both.
 */

/** Case notes and outcome comments: plain text up to these lengths (lib/cases/schemas.ts). */
export const NOTE_MAX_CHARS = 2000;
export const COMMENT_MAX_CHARS = 1000;

export const RED_FLAGS = ["pep", "restrictive_list", "low_facematch", "high_risk"] as const;
export type RedFlag = (typeof RED_FLAGS)[number];

export const RECOMMENDATIONS = ["approve", "reprove", "escalate"] as const;
export type Recommendation = (typeof RECOMMENDATIONS)[number];

export const QUEUES = ["open", "mine", "unassigned", "confirming", "closed"] as const;
export type Queue = (typeof QUEUES)[number];

export const QUEUE_SORTS = ["age", "due", "priority"] as const;
export type QueueSort = (typeof QUEUE_SORTS)[number];

/** Reason codes an outcome cites; labels live in messages/<locale>/cases.json under `reasons`. */
export const REASON_CODES = [
  "identity_confirmed",
  "documents_consistent",
  "document_mismatch",
  "document_expired",
  "low_image_quality",
  "liveness_doubt",
  "facematch_doubt",
  "pep_exposure",
  "restrictive_list_hit",
  "high_risk_score",
  "needs_more_information",
  "other",
] as const;
export type ReasonCode = (typeof REASON_CODES)[number];

/** Flags whose presence makes any outcome need a second person (four eyes). */
export const FOUR_EYES_FLAGS: readonly RedFlag[] = ["pep", "restrictive_list"];

// Weights for the queue's priority: a restrictive-list hit outranks a PEP, which outranks a weak facematch.
const FLAG_WEIGHT: Record<RedFlag, number> = { restrictive_list: 4, pep: 3, low_facematch: 2, high_risk: 1 };

export interface CaseSettings {
  /** Flags that open a case on their own and count towards priority. */
  redFlags: readonly string[];
  riskThreshold: number;
  slaHours: number;
}

// The case's name for each verification red flag that case work weighs; the others (deceased, liveness)
// are shown on the detail but do not open a case.
const CASE_FLAG_OF: Partial<Record<VerificationRedFlag["kind"], RedFlag>> = {
  pep: "pep",
  restrictive_list: "restrictive_list",
  facematch_below: "low_facematch",
  high_risk: "high_risk",
};

/**
 * Every case red flag the verification shows, whatever the configuration enables (four eyes needs them
 * all). Computed by the verification's own red flags (lib/cases/red-flags.ts), with the case's
 * risk threshold (CASE_RISK_THRESHOLD, on the service's 0..100 score scale) in place of the high band.
 */
export function flagsOf(verification: Verification, riskThreshold: number): RedFlag[] {
  const found = new Set(redFlags(verification, { riskThreshold }).map((flag) => CASE_FLAG_OF[flag.kind]));
  return RED_FLAGS.filter((flag) => found.has(flag));
}

export function enabledFlags(flags: readonly string[], settings: Pick<CaseSettings, "redFlags">): string[] {
  return flags.filter((flag) => settings.redFlags.includes(flag));
}

export function priorityOf(flags: readonly string[], settings: Pick<CaseSettings, "redFlags">): number {
  return enabledFlags(flags, settings).reduce((sum, flag) => sum + (FLAG_WEIGHT[flag as RedFlag] ?? 0), 0);
}

/** Priority band the queue shows. */
export function priorityLevel(priority: number): "high" | "medium" | "normal" {
  if (priority >= 4) return "high";
  if (priority >= 2) return "medium";
  return "normal";
}

/** A person is needed while the verification is not final and is in review or shows an enabled red flag. */
export function needsPerson(status: string, flags: readonly string[], settings: CaseSettings): boolean {
  if (isDecided(status)) return false;
  return status === "review" || enabledFlags(flags, settings).length > 0;
}

/** A reprove, and any outcome on a PEP or restrictive-list case, needs confirmation by someone else. */
export function needsConfirmation(recommendation: Recommendation, flags: readonly string[]): boolean {
  return recommendation === "reprove" || flags.some((flag) => FOUR_EYES_FLAGS.includes(flag as RedFlag));
}

/** The upstream status a recommendation expects; escalate expects nothing in particular. */
export const EXPECTED_FINAL_STATUS: Record<Recommendation, string | null> = {
  approve: "approved",
  reprove: "reproved",
  escalate: null,
};

/** True when an effective (confirmed, or not needing confirmation) recommendation contradicts the final status. */
export function disagrees(recommendation: Recommendation | null, effective: boolean, finalStatus: string): boolean {
  if (!recommendation || !effective) return false;
  const expected = EXPECTED_FINAL_STATUS[recommendation];
  return expected !== null && expected !== finalStatus;
}

/** Upper bounds of the open backlog's age buckets, in hours; the last bucket is open-ended. */
export const AGE_BUCKETS_HOURS = [24, 72, 168] as const;
export const AGE_BUCKETS = ["under_1d", "1d_3d", "3d_7d", "over_7d"] as const;
export type AgeBucket = (typeof AGE_BUCKETS)[number];

/**
 * The opening times a bucket holds at `now`: opened after `after` and at or before `atOrBefore` (null: no
 * bound). The queue's `age` filter and the overview's backlog count with these same bounds.
 */
export function ageBucketBounds(bucket: AgeBucket, now: Date): { after: Date | null; atOrBefore: Date | null } {
  const index = AGE_BUCKETS.indexOf(bucket);
  const ago = (hours: number | undefined) => (hours === undefined ? null : new Date(now.getTime() - hours * 3_600_000));
  return { after: ago(AGE_BUCKETS_HOURS[index]), atOrBefore: index === 0 ? null : ago(AGE_BUCKETS_HOURS[index - 1]) };
}

export function dueAt(openedAt: Date, slaHours: number): Date {
  return new Date(openedAt.getTime() + slaHours * 3_600_000);
}
