import { auditFiltersToSearchParams } from "@/lib/audit-trail/filters";
import type { KnownStatus } from "@/lib/overview/figures";
import { type VerificationFilters } from "@/lib/upstream/model/verification-query";
import { filtersToUrlQuery } from "@/lib/verifications/rules";

/* Link and colour helpers of the overview; its number and day formatters are components/ui/formatters.ts. */

/** The verification list behind a number. */
export function verificationsHref(filters: VerificationFilters): string {
  const query = filtersToUrlQuery(filters);
  return query ? `/verifications?${query}` : "/verifications";
}

/** The audit log behind a number (admins only): successful events of one action over some days. */
export function auditHref(action: string, from: string, to: string): string {
  return `/admin/audit?${auditFiltersToSearchParams({ action, outcome: "success", from, to }).toString()}`;
}

/** Fill colours of the statuses, each ≥ 3:1 against white; always shown with their names. */
export const STATUS_COLORS: Record<KnownStatus | "other", string> = {
  approved: "#047857",
  review: "#b45309",
  reproved: "#b91c1c",
  started: "#0369a1",
  not_opened: "#64748b",
  other: "#7c3aed",
};

/** Colours for series without a meaning of their own (audit actions), in order. */
export const SERIES_COLORS = ["#1d4ed8", "#0f766e", "#a21caf", "#c2410c", "#4d7c0f", "#be123c", "#475569"];
