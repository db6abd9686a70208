/*
 * What an analyst must see first on a verification: the red flags, computed once from the domain object so
 * the detail's summary, the list's cards and the export agree. Shared: no server imports.
 */
import { FACEMATCH_VALID_SIMILARITY, type Verification } from "@/lib/domain/verification";

/** ASSUMPTION: the contract shows no scale for risk; the sandbox's is 0..1000 (SCORE_SCALE). */
export const RISK_SCALE = 1000;

/**
 * ASSUMPTION: the contract gives no risk bands. These split the 0..1000 scale in three; a score at or above
 * a band's lower bound belongs to it. Kept here only, so the scale, its legend and the "high risk" flag agree.
 */
export const RISK_BANDS = [
  { band: "low", from: 0 },
  { band: "medium", from: 400 },
  { band: "high", from: 700 },
] as const;
export type RiskBand = (typeof RISK_BANDS)[number]["band"];

export function riskBand(score: number): RiskBand {
  let current: RiskBand = "low";
  for (const { band, from } of RISK_BANDS) if (score >= from) current = band;
  return current;
}

/**
 * ASSUMPTION: the contract shows `approved` and `review`; the sandbox also sends `reproved`. Only these are
 * outcomes: a `decided_at` on any other status is not shown as a decision.
 */
export const FINAL_STATUSES: readonly string[] = ["approved", "reproved"];

export function isFinalStatus(status: string | null | undefined): boolean {
  return status != null && FINAL_STATUSES.includes(status);
}

export type RedFlag =
  | { kind: "pep"; origin: string | null }
  | { kind: "restrictive_list"; name: string | null; source: string | null }
  | { kind: "facematch_below"; similarity: number }
  | { kind: "liveness_not_approved"; state: string | null }
  | { kind: "high_risk"; score: number }
  | { kind: "deceased" };

// ASSUMPTION: the contract does not show a death field on verifications; these names are read when present.
const DECEASED_FIELDS = ["deceased", "obito", "consta_obito"] as const;

function isDeceased(extra: Record<string, unknown>): boolean {
  return DECEASED_FIELDS.some((key) => extra[key] === true);
}

/** Red flags in the order an analyst reads them: identity of the person first, then the checks. */
export function redFlags(verification: Verification): RedFlag[] {
  const flags: RedFlag[] = [];
  if (isDeceased(verification.extra)) flags.push({ kind: "deceased" });
  if (verification.pepOrigin || verification.person.pep === true) flags.push({ kind: "pep", origin: verification.pepOrigin });
  for (const entry of verification.restrictiveLists) {
    flags.push({ kind: "restrictive_list", name: entry.name ?? null, source: entry.source ?? null });
  }
  const facematch = verification.steps.find((step) => step.name === "facematch");
  if (facematch?.similarity !== undefined && facematch.similarity < FACEMATCH_VALID_SIMILARITY) {
    flags.push({ kind: "facematch_below", similarity: facematch.similarity });
  }
  const liveness = verification.steps.find((step) => step.name === "liveness");
  // A liveness step still pending is not a red flag: the person may not have reached it yet.
  if (liveness && liveness.state !== "approved" && liveness.state !== "pending" && liveness.state !== null) {
    flags.push({ kind: "liveness_not_approved", state: liveness.state });
  }
  if (verification.riskScore !== null && riskBand(verification.riskScore) === "high") {
    flags.push({ kind: "high_risk", score: verification.riskScore });
  }
  return flags;
}
