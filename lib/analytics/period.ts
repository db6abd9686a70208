import { z } from "zod";

import { addDays } from "@/lib/overview/period";
import type { InputProblem } from "@/lib/verifications/rules";
import { problemsOf } from "@/lib/verifications/validation";

/*
 * The team's numbers' period, kept in the URL of the page and of GET /api/analytics/team: `from` and `to`,
 * calendar days (YYYY-MM-DD) in the display time zone, both included; by default the last 30 days, today
 * included. `format=csv` asks the route for the CSV. Every problem is named by its parameter. Shared: no
 * server imports (the page's form uses the same names).
 */

export const DEFAULT_ANALYTICS_DAYS = 30;
/** Nothing upstream is asked, so the bound is the database's work: a quarter's worth of cases at most. */
export const MAX_ANALYTICS_DAYS = 92;
export const ANALYTICS_FORMATS = ["json", "csv"] as const;
export type AnalyticsFormat = (typeof ANALYTICS_FORMATS)[number];

export interface AnalyticsPeriod {
  /** First day, YYYY-MM-DD, in the display time zone. */
  from: string;
  /** Last day, included. */
  to: string;
  /** How many calendar days the period spans. */
  days: number;
}

const querySchema = z
  .object({
    from: z.iso.date({ error: "must be a date as YYYY-MM-DD" }).optional(),
    to: z.iso.date({ error: "must be a date as YYYY-MM-DD" }).optional(),
    format: z.enum(ANALYTICS_FORMATS, { error: `must be one of ${ANALYTICS_FORMATS.join(", ")}` }).optional(),
  })
  .strict();

export type AnalyticsQueryResult =
  { ok: true; value: { period: AnalyticsPeriod; format: AnalyticsFormat } } | { ok: false; problems: InputProblem[] };

const spanOf = (from: string, to: string) => Math.round((Date.parse(`${to}T00:00:00Z`) - Date.parse(`${from}T00:00:00Z`)) / 86_400_000) + 1;

/** Reads `from`, `to` and `format` from the query string; `today` is the display time zone's. */
export function parseAnalyticsQuery(params: URLSearchParams, today: string): AnalyticsQueryResult {
  const raw: Record<string, string | string[]> = {};
  for (const key of new Set(params.keys())) {
    const values = params.getAll(key).filter((value) => value !== "");
    if (values.length > 0) raw[key] = values.length === 1 ? values[0]! : values;
  }
  const parsed = querySchema.safeParse(raw);
  if (!parsed.success) return { ok: false, problems: problemsOf(parsed.error) };
  const to = parsed.data.to ?? today;
  const from = parsed.data.from ?? addDays(to, -(DEFAULT_ANALYTICS_DAYS - 1));
  if (from > to) return { ok: false, problems: [{ field: "from", message: "must not be after `to`" }] };
  const days = spanOf(from, to);
  if (days > MAX_ANALYTICS_DAYS) {
    return { ok: false, problems: [{ field: "to", message: `the period must span at most ${MAX_ANALYTICS_DAYS} days` }] };
  }
  return { ok: true, value: { period: { from, to, days }, format: parsed.data.format ?? "json" } };
}

/** The CSV's address for a period (the page adds its connection). */
export function analyticsCsvHref(period: Pick<AnalyticsPeriod, "from" | "to">): string {
  return `/api/analytics/team?${new URLSearchParams({ from: period.from, to: period.to, format: "csv" }).toString()}`;
}
