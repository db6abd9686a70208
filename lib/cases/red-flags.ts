/*
 * What an analyst must see first on a verification: the red flags, computed once from the domain object so
 * the detail's summary, the list's cards and the export agree. Shared: no server imports.
 */
import {
  DECEASED_FIELDS,
  FACEMATCH_VALID_SIMILARITY,
  KNOWN_STEPS,
  SCORE_SCALE,
  type Verification,
} from "@/lib/upstream/model/verification";

/** Risk is drawn on the service's score scale (lib/upstream/model/verification.ts, 0..100 as its material shows). */
export const RISK_SCALE = SCORE_SCALE;

/**
 * ASSUMPTION (docs/assumptions.md#risk-bands): neither the contract nor the provider's material gives risk bands. These split the scale in
 * three; a score at or above a band's lower bound belongs to it. Kept here only, so the scale, its legend
 * and the "high risk" flag agree (case work's CASE_RISK_THRESHOLD defaults to the high band's bound).
 */
export const RISK_BANDS = [
  { band: "low", from: 0 },
  { band: "medium", from: 40 },
  { band: "high", from: 70 },
] as const;
export type RiskBand = (typeof RISK_BANDS)[number]["band"];

export function riskBand(score: number): RiskBand {
  let current: RiskBand = "low";
  for (const { band, from } of RISK_BANDS) if (score >= from) current = band;
  return current;
}

export type RedFlag =
  | { kind: "pep"; origin: string | null }
  | { kind: "restrictive_list"; name: string | null; source: string | null }
  | { kind: "facematch_below"; similarity: number }
  | { kind: "liveness_not_approved"; state: string | null }
  | { kind: "high_risk"; score: number }
  | { kind: "deceased" };

function isDeceased(extra: Record<string, unknown>): boolean {
  return DECEASED_FIELDS.some((key) => extra[key] === true);
}

/** Lower bound of the "high" risk band: the default for a caller's own threshold. */
export const HIGH_RISK_FROM = RISK_BANDS.find((entry) => entry.band === "high")!.from;

export interface RedFlagOptions {
  /** A score at or above this (on RISK_SCALE) is high risk; case work passes CASE_RISK_THRESHOLD. */
  riskThreshold?: number;
}

/**
 * Red flags in the order an analyst reads them: identity of the person first, then the checks. The one
 * computation of red flags: the detail, the list, the export and case work (lib/cases/rules.ts) all read it.
 */
export function redFlags(verification: Verification, options: RedFlagOptions = {}): RedFlag[] {
  const riskThreshold = options.riskThreshold ?? HIGH_RISK_FROM;
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
  if (verification.riskScore !== null && verification.riskScore >= riskThreshold) {
    flags.push({ kind: "high_risk", score: verification.riskScore });
  }
  return flags;
}

/** A step that has not (yet) passed: absent from the verification, without a state, pending, or any state but approved. */
export interface OpenStep {
  name: string;
  /** `missing` when the verification does not list the step at all; null when it lists it with no state. */
  state: string | null;
}

/**
 * The steps that keep a verification from being "all clear". A summary may only say "no alerts" when this is
 * empty: no red flag is not the same as checks passed while a step is pending or missing.
 * ASSUMPTION (docs/assumptions.md#verification-fields): every verification is expected to carry the three
 * steps the contract names (ocr, liveness, facematch); one that is absent counts as missing.
 */
export function openSteps(verification: Pick<Verification, "steps">): OpenStep[] {
  const open: OpenStep[] = [];
  for (const name of KNOWN_STEPS) {
    if (!verification.steps.some((step) => step.name === name)) open.push({ name, state: "missing" });
  }
  for (const step of verification.steps) {
    if (step.state !== "approved") open.push({ name: step.name, state: step.state });
  }
  const order = (name: string) => {
    const index = (KNOWN_STEPS as readonly string[]).indexOf(name);
    return index === -1 ? KNOWN_STEPS.length : index;
  };
  return open.sort((a, b) => order(a.name) - order(b.name));
}
