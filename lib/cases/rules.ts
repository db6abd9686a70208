import { redFlags, type RedFlag as VerificationRedFlag } from "@/lib/cases/red-flags";
import { isDecided, type Verification } from "@/lib/upstream/model/verification";

import { AGE_BUCKETS, RECOMMENDATIONS, RED_FLAGS, stageOf, type AgeBucket, type Recommendation, type RedFlag } from "./queue-rules";

/*
 * The rules of case work, pure and shared (no server imports): which verification needs a person, its red
 * flags and priority, which outcome needs a second person, and when the upstream's final status disagrees
 * with the case's recommendation. The database layer applies the same rules in its conditional statements,
 * as SQL built from the tables here (lib/cases/server/rule-conditions.ts); tests pin both.
 */

/** Case notes and outcome comments: plain text up to these lengths (lib/cases/validation.ts). */
export const NOTE_MAX_CHARS = 2000;
export const COMMENT_MAX_CHARS = 1000;

export {
  AGE_BUCKETS,
  type AgeBucket,
  type CaseStage,
  EFFECTIVE_STATES,
  QUEUE_SORTS,
  QUEUES,
  type Queue,
  RECOMMENDATIONS,
  type Recommendation,
  RED_FLAGS,
  type RedFlag,
  stageOf,
} from "./queue-rules";

/**
 * The provider's review sub-state to show beside the case's own stage, or null when they agree (or the provider said
 * none, or the case is closed). The dashboard's stage read in the provider's terms (api/verification-statuses.mdx:
 * `open` no analyst, `assigned` an analyst has it, `decided` an analyst decided it): decided here is `decided`, any
 * other open case `assigned` when someone holds it, else `open`. The two are separate desks, so a provider further
 * along is information (someone at the provider took or decided it), not an error.
 */
export function providerReviewStateToShow(item: {
  status: string;
  recommendation: string | null;
  outcomeState: string | null;
  assignee: unknown;
  upstreamReviewState: string | null;
}): string | null {
  if (item.status !== "open" || !item.upstreamReviewState) return null;
  const stage = stageOf(item);
  const ours = stage === "decided" ? "decided" : item.assignee ? "assigned" : "open";
  // Only where the provider is further along: the team's own taking of a case is never told to the provider, so its
  // `open` beside a case held here says nothing (and would cost the decision panel a line on the first screen).
  const rank = (state: string) => REVIEW_STATE_RANK[state] ?? 0;
  return rank(item.upstreamReviewState) > rank(ours) ? item.upstreamReviewState : null;
}

const REVIEW_STATE_RANK: Record<string, number> = { open: 0, assigned: 1, decided: 2 };

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

/**
 * Which reasons each recommendation may cite: a reprove names what is wrong, an approve what was checked,
 * an escalation what a senior must weigh. "other" belongs to each (its comment says what it is).
 */
export const REASONS_BY_RECOMMENDATION: Record<Recommendation, readonly ReasonCode[]> = {
  approve: ["identity_confirmed", "documents_consistent", "other"],
  reprove: [
    "document_mismatch",
    "document_expired",
    "low_image_quality",
    "liveness_doubt",
    "facematch_doubt",
    "restrictive_list_hit",
    "high_risk_score",
    "other",
  ],
  escalate: [
    "pep_exposure",
    "restrictive_list_hit",
    "high_risk_score",
    "liveness_doubt",
    "facematch_doubt",
    "needs_more_information",
    "other",
  ],
};

/** The recommendations a reason may be cited for (the catalogue the form and the API show). */
export function recommendationsOf(reason: ReasonCode): Recommendation[] {
  return RECOMMENDATIONS.filter((recommendation) => REASONS_BY_RECOMMENDATION[recommendation].includes(reason));
}

export type OutcomeProblem =
  { field: "reasons"; code: "reasons_required" | "reason_not_for_recommendation" } | { field: "comment"; code: "comment_required" };

/** Whether an outcome's reasons fit its recommendation: at least one, each of that recommendation's; a reprove says why in a comment. */
export function outcomeProblems(input: { recommendation: Recommendation; reasons: readonly string[]; comment: string }): OutcomeProblem[] {
  const problems: OutcomeProblem[] = [];
  const allowed: readonly string[] = REASONS_BY_RECOMMENDATION[input.recommendation];
  if (input.reasons.length === 0) problems.push({ field: "reasons", code: "reasons_required" });
  else if (input.reasons.some((reason) => !allowed.includes(reason)))
    problems.push({ field: "reasons", code: "reason_not_for_recommendation" });
  if (input.recommendation === "reprove" && input.comment.trim() === "") problems.push({ field: "comment", code: "comment_required" });
  return problems;
}

/**
 * Four eyes, defined once as data: for each recommendation, whether it always needs a second person (a reprove),
 * never does (an escalation decides nothing: it goes to the escalation queue, and the decision taken there is the
 * one confirmed), or does when the case shows one of FOUR_EYES_FLAGS. `needsConfirmation` reads these two, and so
 * does the database's condition (lib/cases/server/rule-conditions.ts); a test runs both over every combination.
 */
export const FOUR_EYES: Record<Recommendation, "always" | "never" | "on_flags"> = {
  approve: "on_flags",
  reprove: "always",
  escalate: "never",
};

/** Flags whose presence makes an outcome marked `on_flags` in FOUR_EYES need a second person. */
export const FOUR_EYES_FLAGS: readonly RedFlag[] = ["pep", "restrictive_list"];

export interface CaseSettings {
  /** Flags that open a case on their own and count towards priority. */
  redFlags: readonly string[];
  riskThreshold: number;
  slaHours: number;
}

// The case's name for each verification red flag (deceased and liveness are kept for the priority; they do not
// open a case: CASE_RED_FLAGS does not list them).
const CASE_FLAG_OF: Record<VerificationRedFlag["kind"], RedFlag> = {
  pep: "pep",
  restrictive_list: "restrictive_list",
  facematch_below: "low_facematch",
  high_risk: "high_risk",
  deceased: "deceased",
  liveness_not_approved: "liveness",
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

/** A person is needed while the verification is not final and is in review or shows an enabled red flag. */
export function needsPerson(status: string, flags: readonly string[], settings: CaseSettings): boolean {
  if (isDecided(status)) return false;
  return status === "review" || enabledFlags(flags, settings).length > 0;
}

/** A reprove, and an approve on a PEP or restrictive-list case, needs confirmation by someone else (FOUR_EYES). */
export function needsConfirmation(recommendation: Recommendation, flags: readonly string[]): boolean {
  const rule = FOUR_EYES[recommendation];
  if (rule === "on_flags") return flags.some((flag) => FOUR_EYES_FLAGS.includes(flag as RedFlag));
  return rule === "always";
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
