import { KNOWN_STATUSES } from "@/lib/upstream/model/verification-query";

/*
 * The overview's figures, as the page draws them. Shared: no server imports.
 *
 * Counts come from the service's list totals, which cover "the most recent verification of each person"
 * (contract): a person verified twice in the period counts once, under their latest status.
 */

export type KnownStatus = (typeof KNOWN_STATUSES)[number];
export const STATUSES: readonly KnownStatus[] = KNOWN_STATUSES;

export type StatusCounts = Record<KnownStatus, number>;

export interface DayCounts {
  day: string;
  byStatus: StatusCounts;
  /** Sum of the known statuses that day. */
  total: number;
}

export interface VerificationCounts {
  days: DayCounts[];
  byStatus: StatusCounts;
  /** Every verification of the period, whatever its status (one count call without a status filter). */
  total: number;
  /** Verifications under statuses the dashboard does not know (total minus the known ones); 0 normally. */
  other: number;
}

export interface Rates {
  /** approved + reproved + review: the verifications that reached the service's analysis. */
  analysed: number;
  approval: number | null;
  review: number | null;
  reproval: number | null;
}

export function emptyStatusCounts(): StatusCounts {
  return Object.fromEntries(STATUSES.map((status) => [status, 0])) as StatusCounts;
}

/** Sums per-day counts into the period's counts; `total` is the service's own period total. */
export function combineCounts(days: DayCounts[], total: number): VerificationCounts {
  const byStatus = emptyStatusCounts();
  for (const day of days) for (const status of STATUSES) byStatus[status] += day.byStatus[status];
  const known = STATUSES.reduce((sum, status) => sum + byStatus[status], 0);
  return { days, byStatus, total, other: Math.max(0, total - known) };
}

/**
 * Rates over the verifications that reached analysis. Started and not-opened ones are left out: they
 * have no outcome yet, and counting them would make a busy day look like a bad one.
 */
export function ratesOf(byStatus: StatusCounts): Rates {
  const analysed = byStatus.approved + byStatus.reproved + byStatus.review;
  const share = (count: number) => (analysed === 0 ? null : count / analysed);
  return { analysed, approval: share(byStatus.approved), review: share(byStatus.review), reproval: share(byStatus.reproved) };
}
