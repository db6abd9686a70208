import type { AuditActivity } from "./activity";
import type { CaseFigures } from "./cases";
import type { VerificationCounts } from "./figures";
import type { OverviewPeriod } from "./period";

// Shared (no server imports): what the overview page receives.

export type Panel<T> = { ok: true; data: T } | { ok: false; code: string };

export interface Overview {
  period: OverviewPeriod;
  verifications: Panel<VerificationCounts>;
  cases: Panel<CaseFigures>;
  activity: Panel<AuditActivity>;
}
