/*
 * Durations summarised as the team's numbers show them (shared: the page formats what the server computed).
 * A percentile interpolates linearly between the two nearest ranks (PostgreSQL's percentile_cont, a
 * spreadsheet's PERCENTILE.INC): the median of an even count is the mean of its two middle values.
 */

export interface DurationSummary {
  /** How many durations were measured. */
  count: number;
  /** Seconds; null when none was measured. */
  median: number | null;
  p90: number | null;
}

export function percentile(sorted: readonly number[], fraction: number): number | null {
  if (sorted.length === 0) return null;
  const position = fraction * (sorted.length - 1);
  const below = Math.floor(position);
  const above = Math.ceil(position);
  const low = sorted[below]!;
  return low + (sorted[above]! - low) * (position - below);
}

export function summarise(seconds: readonly number[]): DurationSummary {
  const sorted = [...seconds].sort((a, b) => a - b);
  return { count: sorted.length, median: percentile(sorted, 0.5), p90: percentile(sorted, 0.9) };
}
